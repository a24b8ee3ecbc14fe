// `make bench`: the budgets of docs/architecture.md, measured on this machine. The size budgets (first screen,
// dist/napkin.html, napkin-embed.js) are asserted: the exit status is 1 when one is exceeded,
// after everything is printed. Timings are printed, not asserted (shared machines are noisy):
// load-to-first-result in headless Chromium (median of 5 cold loads, file:// and http), one
// keystroke's recompute + redraw, a scenario change, the JS API's run and sweep costs and the
// layout search. Each test tier's time from the last passing `make test` is printed too.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import { createRequire } from 'node:module';
import { spawn, spawnSync } from 'node:child_process';
import { chromium } from 'playwright-core';

const require = createRequire(import.meta.url);
const ROOT = path.resolve(path.dirname(new URL(import.meta.url).pathname), '../..');
const CHROMIUM_ARGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking',
  '--disable-component-update', '--disable-sync', '--no-first-run'];
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
// SI kilobytes (1 KB = 1000 bytes), as the budgets and the rest of Napkin count them.
const kb = (n) => (n / 1000).toFixed(1) + ' KB';
const gz = (file) => zlib.gzipSync(fs.readFileSync(file), { level: 9 }).length;

// The size budgets (docs/architecture.md, Budgets), gzipped, in SI bytes.
const BUDGET = { firstScreen: 250e3, single: 450e3, embed: 250e3 };
const overBudget = [];  // one line per size budget exceeded; the exit status is 1 if any
function budgetLine(label, bytes, budget) {
  const ok = bytes <= budget;
  if (!ok) overBudget.push(`${label}: ${kb(bytes)} gzipped, ${kb(bytes - budget)} over its ${kb(budget)} budget`);
  return `  ${label.padEnd(40)} ${kb(bytes).padStart(10)} gzip   budget ${kb(budget)}: ${ok ? `ok, ${kb(budget - bytes)} to spare` : `EXCEEDED by ${kb(bytes - budget)}`}`;
}

function sizes() {
  const rows = [];
  for (const f of ['dist/index.html', 'dist/napkin-wasm.js', 'dist/napkin.html', 'dist/napkin-embed.js', 'dist/napkin.wasm.deflate', 'dist/napkin-deferred.wasm', 'dist/problems.json', 'build/wasm/napkin.js']) {
    const p = path.join(ROOT, f);
    if (fs.existsSync(p)) rows.push([f, fs.statSync(p).size, gz(p)]);
  }
  for (const f of fs.readdirSync(path.join(ROOT, 'dist/assets')))
    if (/\.(js|css)$/.test(f)) {
      const p = path.join(ROOT, 'dist/assets', f);
      rows.push(['dist/assets/' + f, fs.statSync(p).size, gz(p)]);
    }
  return rows;
}

// The first screen (docs/architecture.md, Budgets): what dist/index.html makes the browser fetch and parse before the
// default results show, read from the built files rather than listed by hand:
//  - the HTML itself;
//  - each <script src> (the entry module, and the wasm script: the deflated wasm, which the page
//    inflates and compiles while it loads) and each <link rel="stylesheet">;
//  - each <link rel="modulepreload"> (Vite lists there the chunks the entry imports statically);
//  - recursively, every module's static `import … from "./x.js"` (a chunk not preloaded is still
//    fetched before the entry runs).
// A dynamic import() is not followed: it loads on first use. Each file is gzipped on its own
// (level 9), as a server sends it, and the sizes are summed. The http page loads below list
// what the browser actually fetched before the first result, as a check on this reading.
function firstScreenFiles(html = path.join(ROOT, 'dist/index.html')) {
  const files = [html];
  const add = (from, ref, isModule) => {
    if (!ref || /^(data:|[a-z]+:\/\/|\/\/)/i.test(ref)) return;  // inline, or not ours
    const p = path.resolve(path.dirname(from), ref.split(/[?#]/)[0]);
    if (files.includes(p)) return;
    files.push(p);
    if (isModule)  // a classic script (the wasm's) has no static imports to follow
      for (const m of fs.readFileSync(p, 'utf8').matchAll(/\b(?:import|export)\s*(?:[\w$*{},\s]*?from\s*)?["'](\.{1,2}\/[^"']+)["']/g)) add(p, m[1], true);
  };
  const text = fs.readFileSync(html, 'utf8');
  const attr = (tag, name) => (tag.match(new RegExp(`\\s${name}=["']([^"']*)["']`, 'i')) || [])[1];
  for (const [tag] of text.matchAll(/<(?:script|link)\b[^>]*>/gi)) {
    const rel = (attr(tag, 'rel') || '').toLowerCase();
    if (/^<script/i.test(tag)) add(html, attr(tag, 'src'), attr(tag, 'type') === 'module');
    else if (rel === 'stylesheet' || rel === 'modulepreload' || rel === 'preload') add(html, attr(tag, 'href'), rel === 'modulepreload');
  }
  return files;
}

async function apiCosts() {
  const api = await require(path.join(ROOT, 'build/wasm/napkin.js'))();
  const inputs = { params: 70e9, tokens: 2e12, gpus: 512, peak_flops: 312e12 };
  const reg = api.list();
  for (let i = 0; i < 300; i++) api.run('train.time', inputs);
  const per = {};  // µs per run, with its derivation, through the JS API: one trial of 500 runs
  const best = {};  // the least of 5 trials of 200 runs: the cost without another process's interference
  for (const e of reg.estimators) {
    const ex = Object.fromEntries(e.inputs.map((i) => [i.name, i.example]));
    for (let i = 0; i < 50; i++) api.run(e.id, ex);
    const n = 500;
    const t = performance.now();
    for (let i = 0; i < n; i++) api.run(e.id, ex);
    per[e.id] = ((performance.now() - t) / n) * 1000;
    best[e.id] = Infinity;
    for (let trial = 0; trial < 5; trial++) {
      const t0 = performance.now();
      for (let i = 0; i < 200; i++) api.run(e.id, ex);
      best[e.id] = Math.min(best[e.id], ((performance.now() - t0) / 200) * 1000);
    }
  }
  const xs = Array.from({ length: 1000 }, (_, i) => i + 1);
  for (let i = 0; i < 20; i++) api.sweep('train.time', inputs, 'gpus', xs);
  const t = performance.now();
  for (let i = 0; i < 100; i++) api.sweep('train.time', inputs, 'gpus', xs);
  return { per, best, sweepMs: (performance.now() - t) / 100 };
}

// One cold load (a new browser context): the page, once it has marked 'napkin-first-result',
// and the mark's time after navigation.
async function coldLoad(browser, url) {
  const ctx = await browser.newContext();
  const page = await ctx.newPage();
  await page.goto(url);
  await page.waitForFunction(() => performance.getEntriesByName('napkin-first-result').length > 0, null, { timeout: 20000 });
  return { ctx, page, first: await page.evaluate(() => performance.getEntriesByName('napkin-first-result')[0].startTime) };
}

async function pageTimes(browser, url) {
  const loads = [];
  for (let i = 0; i < 5; i++) {
    const { ctx, page, first } = await coldLoad(browser, url);
    loads.push(first);
    // What the browser fetched before the first result (the page's own Resource Timing).
    if (i === 0) loads.fetched = await page.evaluate(() => {
      const first = performance.getEntriesByName('napkin-first-result')[0].startTime;
      return [location.href, ...performance.getEntriesByType('resource').filter((r) => r.startTime < first).map((r) => r.name)];
    });
    // Where the time went (web/main.js marks each stage).
    (loads.stages ||= []).push(await page.evaluate(() => Object.fromEntries(
      ['napkin-modules-evaluated', 'napkin-wasm-inflated', 'napkin-wasm-started', 'napkin-registry-listed', 'napkin-page-built', 'napkin-first-result']
        .map((n) => [n.slice(7), (performance.getEntriesByName(n)[0] || {}).startTime]))));
    if (i === 4) {
      const keys = await page.evaluate(async () => {
        performance.clearMeasures('napkin-recompute');
        const field = document.querySelector('form[data-estimator="train.time"] [name="gpus"]');
        for (const v of ['1', '10', '102', '1024', '2048', '4096', '512', '64', '128', '256']) {
          field.value = v;
          field.dispatchEvent(new Event('input'));
          await new Promise((r) => requestAnimationFrame(() => setTimeout(r, 0)));
        }
        return performance.getEntriesByName('napkin-recompute').map((m) => m.duration);
      });
      loads.keys = keys;
      // A scenario-bar change: every card of the visible tab follows and recomputes.
      loads.scenario = await page.evaluate(async () => {
        performance.clearMeasures('napkin-scenario');
        const select = document.querySelector('.scenario-bar:not([hidden]) select');
        for (const opt of [...select.options].slice(1, 11)) {
          select.value = opt.value;
          select.dispatchEvent(new Event('change'));
          await new Promise((r) => requestAnimationFrame(() => setTimeout(r, 0)));
        }
        return performance.getEntriesByName('napkin-scenario').map((m) => m.duration);
      });
    }
    await ctx.close();
  }
  return loads;
}

// The layout search (docs/architecture.md, Budgets: ≥ 10 M layouts per second in the page's worker, 20 M the aim;
// native at least as fast): native CLI, wasm in node, and wasm in the page's Web Worker
// (the single file from file://, as a user opens it). `seconds` is the search's own loop time;
// the page's wall time also counts starting the worker.
// Host memory as Calculon's a100_80g.json system has it (512 GiB per GPU), so that optimizer
// offload is a dimension in both searches.
const SEARCH_JOB = { model: 'gpt3', gpu: 'a100', gpus: 512, global_batch: 1536, seq_len: 2048, host_memory: 512 * 2 ** 30 };

async function searchJob(api) {
  // The job by preset names where the search takes them, else by numbers, else its defaults
  // (the same job).
  for (const job of [SEARCH_JOB, { gpus: 512, global_batch: 1536, seq_len: 2048 }])
    if (!(await api.search(job)).error) return job;
  return { gpus: 512 };
}

function searchLine(label, r, wall) {
  if (r.error) return console.log(`  ${label.padEnd(26)} error: ${r.error.message}`);
  const w = wall === undefined ? '' : `, wall ${(wall / 1000).toFixed(2)} s`;
  console.log(`  ${label.padEnd(26)} ${(r.configs_per_second / 1e6).toFixed(2).padStart(6)} M layouts/s, ${r.total.toLocaleString('en')} layouts in ${r.seconds.toFixed(2)} s${w}`);
  if (label.startsWith('native') && r.calculon_space)
    console.log(`  ${'Calculon, same job'.padEnd(26)} ${r.calculon_space.toLocaleString('en')} layouts (its loops, counted; about 245 per second on 2 cores: ${(r.calculon_space / 245 / 3600).toFixed(1)} h)`);
}

async function searchBench(browser) {
  const api = await require(path.join(ROOT, 'build/wasm/napkin.js'))();
  const job = await searchJob(api);
  console.log(`\nLayout search, ${JSON.stringify(job)} (budget: ≥ 10 M layouts/s in the page's worker, 20 M the aim; native at least as fast)`);
  const args = Object.entries(job).map(([k, v]) => `${k}=${v}`);
  const cli = spawnSync(path.join(ROOT, 'build/native/napkin'), ['search', ...args], { encoding: 'utf8', maxBuffer: 1 << 26 });
  if (cli.status === 0) searchLine('native (CLI)', JSON.parse(cli.stdout));
  else console.log('  native (CLI)               not available: ' + (cli.error?.message || cli.stderr || '').trim().split('\n')[0]);
  await api.search(job);
  searchLine('wasm in node', await api.search(job));
  const page = await browser.newPage();
  await page.goto('file://' + path.join(ROOT, 'dist/napkin.html'));
  await page.waitForFunction(() => window.napkin);
  const runs = await page.evaluate(async (j) => {
    const out = [];
    for (let i = 0; i < 3; i++) {
      const t = performance.now();
      const r = await window.napkin.search(j);
      out.push({ r: { error: r.error, configs_per_second: r.configs_per_second, total: r.total, seconds: r.seconds }, wall: performance.now() - t });
    }
    return out;
  }, job);
  searchLine('page worker, first search', runs[0].r, runs[0].wall);
  const warm = runs.slice(1).sort((a, b) => a.r.seconds - b.r.seconds)[0];
  searchLine('page worker, warm', warm.r, warm.wall);
  await page.close();
}

function serve(port, dir = path.join(ROOT, 'dist')) {
  const child = spawn(process.execPath, [path.join(ROOT, 'web/serve.mjs'), dir, String(port)], { stdio: 'pipe' });
  return new Promise((resolve) => child.stdout.once('data', () => resolve(child)));
}

// Median ms from navigation to the 'napkin-first-result' mark over 5 cold loads (a new browser
// context each, as pageTimes).
async function markTimes(browser, url) {
  const times = [];
  for (let i = 0; i < 5; i++) {
    const { ctx, first } = await coldLoad(browser, url);
    times.push(first);
    await ctx.close();
  }
  return times;
}

// Two pages beside the product, in a scratch folder: the machine's floor (an empty page whose
// one module script marks at once: what any page pays here before its own code runs), and a
// study page holding one embedded problem as docs/ describe it (SPEC: shown ≤ 300 ms over http).
function scratchPages() {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'napkin-bench-'));
  fs.writeFileSync(path.join(dir, 'blank.html'), '<!doctype html><meta charset="utf-8"><title>blank</title><script type="module" src="blank.js"></script><p>blank</p>');
  fs.writeFileSync(path.join(dir, 'blank.js'), "performance.mark('napkin-first-result');");
  for (const f of ['napkin-embed.js', 'napkin.wasm.deflate', 'napkin-deferred.wasm', 'napkin-problems.json'])
    fs.copyFileSync(path.join(ROOT, 'dist', f), path.join(dir, f));
  // The mark is set when the element says it rendered (web/elements.js: napkin-rendered).
  fs.writeFileSync(path.join(dir, 'mark.js'), "document.addEventListener('napkin-rendered', () => performance.mark('napkin-first-result'), { once: true });");
  fs.writeFileSync(path.join(dir, 'problem.html'), '<!doctype html><meta charset="utf-8"><title>one problem</title><h1>Week 4</h1><script src="mark.js"></script><script src="napkin-embed.js"></script><napkin-problem problem="train.time.days" seed="0"></napkin-problem>');
  return dir;
}

const cpu = os.cpus()[0]?.model || 'unknown CPU';
console.log(`Napkin bench — ${new Date().toISOString()}`);
console.log(`machine: ${cpu}, ${os.cpus().length} cores, ${(os.totalmem() / 2 ** 30).toFixed(0)} GiB, node ${process.version}, load ${os.loadavg()[0].toFixed(2)}`);
console.log('\nSizes (gzip -9 of each file)');
for (const [f, raw, z] of sizes()) console.log(`  ${f.padEnd(40)} ${kb(raw).padStart(10)} raw ${kb(z).padStart(10)} gzip`);
const rel = (p) => path.relative(ROOT, p);
const screen = firstScreenFiles();
const screenBytes = screen.reduce((n, f) => n + gz(f), 0);
console.log('\nSize budgets (docs/architecture.md)');
console.log(budgetLine('first screen of dist/index.html', screenBytes, BUDGET.firstScreen));
console.log(`    = ${screen.map((f) => `${rel(f)} ${kb(gz(f))}`).join(' + ')}`);
console.log(budgetLine('dist/napkin.html (the whole product)', gz(path.join(ROOT, 'dist/napkin.html')), BUDGET.single));
// Before its first element renders the embed needs napkin-embed.js (the glue and the custom
// elements) and the wasm's primary part it fetches from beside itself (gzipped as a server
// sends it): all a <napkin-calculator> needs. A <napkin-problem> also needs the deferred part
// (practice code, wasm/split.mjs) and the problem bank; that total is printed, not asserted.
const embedFiles = ['dist/napkin-embed.js', 'dist/napkin.wasm.deflate'].map((f) => path.join(ROOT, f));
console.log(budgetLine('embed before its 1st element', embedFiles.reduce((n, f) => n + gz(f), 0), BUDGET.embed));
console.log(`    = ${embedFiles.map((f) => `${rel(f)} ${kb(gz(f))}`).join(' + ')}`);
const problemFiles = [...embedFiles, ...['dist/napkin-deferred.wasm', 'dist/napkin-problems.json'].map((f) => path.join(ROOT, f))];
const problemBytes = problemFiles.reduce((n, f) => n + gz(f), 0);
console.log(`  ${'embed, a <napkin-problem> (not asserted)'.padEnd(40)} ${kb(problemBytes).padStart(10)} gzip   ${problemBytes <= BUDGET.embed ? 'within' : 'over'} the ${kb(BUDGET.embed)} of the first element's budget`);
console.log(`    = ${problemFiles.map((f) => `${rel(f)} ${kb(gz(f))}`).join(' + ')}`);

// Each tier's wall time from the last passing `make test` (the Makefile writes the file).
const times = path.join(ROOT, 'build/test-times.txt');
if (fs.existsSync(times))
  console.log('\nTest tiers, from the last passing make test:\n' + fs.readFileSync(times, 'utf8').trimEnd().split('\n').map((l) => '  ' + l).join('\n'));
else console.log('\nTest tiers: no build/test-times.txt (written by a passing `make test`)');

const { per, best, sweepMs } = await apiCosts();
console.log('\nJS API in node (budget: run ≤ 50 µs, 1,000-point sweep ≤ 2 ms)');
for (const [id, us] of Object.entries(per)) console.log(`  run ${id.padEnd(22)} ${us.toFixed(1).padStart(7)} µs`);
const sorted = Object.values(per).sort((a, b) => a - b);
console.log(`  runs: min ${sorted[0].toFixed(1)} µs, median ${median(sorted).toFixed(1)} µs, max ${sorted[sorted.length - 1].toFixed(1)} µs (one trial of 500 each)`);
const bests = Object.values(best).sort((a, b) => a - b);
console.log(`  runs, least of 5 trials of 200 each: min ${bests[0].toFixed(1)} µs, median ${median(bests).toFixed(1)} µs, max ${bests[bests.length - 1].toFixed(1)} µs`);
console.log(`  sweep train.time × 1000 points ${sweepMs.toFixed(3)} ms`);

const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: CHROMIUM_ARGS });
await searchBench(browser);
const server = await serve(4174);
try {
  for (const [label, url] of [['file://', 'file://' + path.join(ROOT, 'dist/napkin.html') + '#tab=training'], ['http', 'http://127.0.0.1:4174/index.html#tab=training']]) {
    const loads = await pageTimes(browser, url);
    console.log(`\nPage from ${label} (budget: results ≤ 150 ms after navigation; keystroke and scenario change ≤ 16 ms)`);
    console.log(`  first results after navigation: median ${median(loads).toFixed(0)} ms  [${loads.map((x) => x.toFixed(0)).join(', ')}]`);
    const stage = (k) => median(loads.stages.map((x) => x[k] ?? NaN)).toFixed(0);
    console.log(`    stages (median ms after navigation): scripts evaluated ${stage('modules-evaluated')}, wasm inflated ${stage('wasm-inflated')}, module started ${stage('wasm-started')}, registry listed ${stage('registry-listed')}, page built ${stage('page-built')}, first tab shown ${stage('first-result')}`);
    console.log(`  keystroke → all outputs + chart redrawn: median ${median(loads.keys).toFixed(2)} ms, max ${Math.max(...loads.keys).toFixed(2)} ms`);
    console.log(`  scenario-bar model change → every card of the tab: median ${median(loads.scenario).toFixed(2)} ms, max ${Math.max(...loads.scenario).toFixed(2)} ms`);
    if (label === 'http') {
      // The first screen as the browser fetched it; a file missing from the reading above
      // counts against the budget too.
      const files = loads.fetched.filter((u) => u.startsWith('http://127.0.0.1:4174/'))
        .map((u) => path.join(ROOT, 'dist', decodeURIComponent(new URL(u).pathname)))
        .filter((f, i, all) => fs.existsSync(f) && all.indexOf(f) === i);
      const bytes = files.reduce((n, f) => n + gz(f), 0);
      const missed = files.filter((f) => !screen.includes(f));
      console.log(`  fetched before the first result: ${files.map((f) => rel(f)).join(', ')}: ${kb(bytes)} gzipped`);
      if (missed.length) console.log(budgetLine('first screen, as fetched over http', bytes, BUDGET.firstScreen) + ` (also fetched: ${missed.map(rel).join(', ')})`);
    }
  }
  const scratch = scratchPages();
  const scratchServer = await serve(4175, scratch);
  try {
    const blank = await markTimes(browser, 'http://127.0.0.1:4175/blank.html');
    console.log(`\nThis machine's floor: an empty page with one module script marks ${median(blank).toFixed(0)} ms after navigation (median of 5 cold loads)  [${blank.map((x) => x.toFixed(0)).join(', ')}]`);
    const problem = await markTimes(browser, 'http://127.0.0.1:4175/problem.html');
    console.log(`Study page with one <napkin-problem>, over http (budget: shown ≤ 300 ms after navigation): median ${median(problem).toFixed(0)} ms  [${problem.map((x) => x.toFixed(0)).join(', ')}]`);
  } finally {
    scratchServer.kill();
    fs.rmSync(scratch, { recursive: true, force: true });
  }
} finally {
  server.kill();
  await browser.close();
}

if (overBudget.length) {
  console.log('\nSize budgets exceeded (docs/architecture.md):\n' + overBudget.map((l) => '  ' + l).join('\n'));
  process.exitCode = 1;
} else console.log('\nEvery size budget of docs/architecture.md is met.');
