// dist/ copied to a plain static host (no CSP header): the embed page and index.html must stay
// inert under hostile hashes and permalinks, and under a hostile parent's messages. The pages'
// own <meta> CSP, embed-page.js's allow-list and state.js's checked, prototype-free maps are
// what protect them. Each case here was seen failing with its guard removed (issue #30.23).
import http from 'node:http';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { test, expect } from './fixtures.mjs';

const DIST = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../dist');
const TYPES = { '.html': 'text/html', '.js': 'text/javascript', '.css': 'text/css', '.woff2': 'font/woff2' };
let server;
let base;

test.beforeAll(async () => {
  server = http.createServer((req, res) => {
    const p = new URL(req.url, 'http://x').pathname;
    // A page of another site that frames embed.html (opened as http://localhost:…, the frame
    // from http://127.0.0.1:…), records every message and posts junk into the frame.
    if (p === '/hostile-parent.html') {
      res.writeHead(200, { 'content-type': 'text/html' });
      return res.end(PARENT(new URL(req.url, 'http://x').searchParams.get('frame')));
    }
    const file = path.join(DIST, path.normalize(p === '/' ? '/index.html' : p));
    if (!file.startsWith(DIST) || !fs.existsSync(file) || fs.statSync(file).isDirectory()) {
      res.writeHead(404);
      return res.end();
    }
    res.writeHead(200, { 'content-type': TYPES[path.extname(file)] || 'application/octet-stream' });
    fs.createReadStream(file).pipe(res);
  });
  await new Promise((ok) => server.listen(0, '127.0.0.1', ok));
  base = `http://127.0.0.1:${server.address().port}`;
});
test.afterAll(() => server.close());

const PARENT = (src) => `<!doctype html><html lang="en"><title>Parent</title><link rel="icon" href="data:,"><main>
  <iframe id="frame" title="Napkin" width="800" height="400" src="${src.replace(/"/g, '&quot;')}"></iframe></main>
  <script>
    window.__messages = [];
    addEventListener('message', (e) => __messages.push(e.data));
    const frame = document.getElementById('frame');
    frame.addEventListener('load', () => {
      for (const junk of ['<img src=x onerror=alert(1)>', { type: 'napkin-score', score: 1 }, { type: 'napkin-height', height: 1e9 },
        JSON.parse('{"__proto__": {"polluted": 1}}'), { problem: '<script>alert(1)<' + '/script>' }, null, 42])
        frame.contentWindow.postMessage(junk, '*');
    });
  </script></html>`;

const HOSTILE = [
  '#estimator=train.time&onmouseover=window.__pwned%3D1',
  '#estimator=train.time&style=content-visibility:auto&oncontentvisibilityautostatechange=window.__pwned%3D1',
  '#estimator=train.time&onfocus=window.__pwned%3D1&autofocus=&tabindex=0',
  '#estimator=train.time&params=%3Cimg%20src%3Dx%20onerror%3Dwindow.__pwned%3D1%3E',
  '#estimator=%22%3E%3Cscript%3Ewindow.__pwned%3D1%3C%2Fscript%3E',
  '#problem=%3Cimg%20src%3Dx%20onerror%3Dwindow.__pwned%3D1%3E&seed=1',
  '#problem=serve.batching.gpus&seed=%3Cscript%3E',
  '#estimator=train.time&origin=javascript:alert(1)',
  '#estimator=train.time&__proto__=x&constructor=y&' + 'params=1'.repeat(3000),
  // Global HTML attributes in the hash: an input called `hidden` (comm.tp_step has one) must
  // not become the attribute that hides the element, nor `inert`, `popover` or `slot`.
  '#estimator=comm.tp_step&hidden=1&inert=&popover=&slot=x&style=display:none',
  '#estimator=train.time&hidden=&inert=&popover=auto&slot=x',
];

for (const hash of HOSTILE) {
  test(`embed.html on a plain static host stays inert: ${hash.slice(0, 70)}`, async ({ page, problems }) => {
    let dialogs = 0;
    page.on('dialog', (d) => { dialogs++; d.dismiss(); });
    await page.goto(`${base}/embed.html${hash}`);
    await page.waitForFunction(() => window.napkin);
    await page.waitForFunction(() => {
      const el = document.querySelector('#embed > *');
      return el && el.shadowRoot && !el.shadowRoot.textContent.includes('Loading');
    });
    await page.mouse.move(200, 200);
    await page.mouse.move(400, 300);
    await page.keyboard.press('Tab');
    await page.waitForTimeout(150);
    const report = await page.evaluate(() => {
      const handlers = [];
      const walk = (root) => {
        for (const el of root.querySelectorAll('*')) {
          for (const a of el.attributes) if (/^on/i.test(a.name)) handlers.push(`${el.tagName} ${a.name}`);
          if (el.shadowRoot) walk(el.shadowRoot);
        }
      };
      walk(document);
      const host = document.querySelector('#embed > *');
      return {
        pwned: window.__pwned, handlers, style: host.getAttribute('style'), attrs: host.getAttributeNames(),
        height: host.getBoundingClientRect().height, polluted: Object.keys(Object.prototype),
      };
    });
    expect(report.pwned).toBeUndefined();
    expect(report.handlers).toEqual([]);
    expect(report.style).toBeNull();
    for (const a of ['hidden', 'inert', 'popover', 'slot', 'autofocus', 'tabindex']) expect(report.attrs).not.toContain(a);
    expect(report.height).toBeGreaterThan(20);  // shown: a calculator, or an error box for an unknown id
    expect(report.polluted).toEqual([]);
    expect(dialogs).toBe(0);
    expect(problems).toEqual([]);
  });
}

test('every HTML file of dist/ carries its own Content-Security-Policy', async () => {
  for (const f of ['index.html', 'embed.html', 'napkin.html']) {
    const html = fs.readFileSync(path.join(DIST, f), 'utf8');
    const m = html.match(/<meta http-equiv="Content-Security-Policy" content="([^"]+)">/);
    expect(m, f).not.toBeNull();
    expect(m[1]).toContain("object-src 'none'");
    expect(m[1]).not.toContain(" 'unsafe-eval'");  // only 'wasm-unsafe-eval'
    expect(m[1]).toMatch(/script-src 'self' 'wasm-unsafe-eval'/);
  }
});

// A permalink is as hostile as the hash of embed.html: 600 pipeline stages with a key each
// once asked the row editor for 600 × 600 inputs and froze the tab (issue #30.13). The editor
// shows at most the 100 stages the core takes and a handful of columns, and says so.
test('a permalink with 600 stages of distinct keys keeps the page responsive and says what it left out', async ({ page, problems }) => {
  const rows = Array.from({ length: 600 }, (_, i) => ({ name: `s${i}`, [`k${i}`]: i }));
  const json = JSON.stringify(rows);
  expect(json.length).toBeGreaterThan(13000);
  const t0 = Date.now();
  await page.goto(`/index.html#tab=inference&v.serve.pipeline.stages=${encodeURIComponent(json)}`);
  await page.waitForFunction(() => window.napkin && document.querySelector('[role=tabpanel]:not([hidden])'), null, { timeout: 10000 });
  const form = page.locator('form[data-estimator="serve.pipeline"]');
  const editor = form.locator('.json-table');
  await expect(editor.locator('.json-table-cap')).toContainText('first 100 of 600 rows', { timeout: 5000 });
  await expect(editor.locator('.json-table-cap')).toContainText('6 of 601 columns');
  expect(Date.now() - t0).toBeLessThan(10000);
  expect(await editor.locator('tbody tr').count()).toBe(100);
  expect(await editor.locator('input').count()).toBeLessThanOrEqual(100 * 6);
  // Still responsive: typing into the same card answers at once.
  const t1 = Date.now();
  await form.locator('[name="budget"]').fill('0.3', { timeout: 3000 });
  await expect(form.locator('[name="budget"]')).toHaveValue('0.3');
  expect(await page.evaluate(() => 1 + 1)).toBe(2);
  expect(Date.now() - t1).toBeLessThan(3000);
  // The JSON text keeps every stage; the core says why it refuses them.
  await expect(form.locator('[name="stages"]')).toHaveValue(/"s599"/);
  await expect(form.locator('.field-error').filter({ hasText: '100' })).toBeVisible();
  expect(problems).toEqual([]);
});

// index.html reads its permalink too (web/state.js): hostile values must stay text, and no key
// may reach Object.prototype. `v.__proto__.x=1` is what a naive reader, such as
// `(values[id] ||= {})[name] = v`, turns into Object.prototype.x; the stages JSON carries a
// "__proto__" key into the row editor, whose cell is then edited. Any enumerable key on
// Object.prototype, whatever its name, fails the test.
const PERMALINKS = [
  '#tab=training&v.__proto__.x=1&v.__proto__.polluted=1&v.constructor.x=1&v.train.time.__proto__=2&d=__proto__&p.__proto__=x&s.__proto__=x',
  '#tab=%3Cimg%20src%3Dx%20onerror%3Dwindow.__pwned%3D1%3E&v.train.time.gpus=%3Cimg%20src%3Dx%20onerror%3Dwindow.__pwned%3D1%3E&d=%3Cscript%3E&p.train.time=%3Cimg%3E&s.model=%3Cimg%20src%3Dx%20onerror%3Dwindow.__pwned%3D1%3E',
  '#tab=inference&v.serve.pipeline.stages=' + encodeURIComponent('[{"__proto__": {"polluted": 1, "x": 1}, "name": "<img src=x onerror=window.__pwned=1>", "latency": 0.01}, {"constructor": {"prototype": {"polluted": 1}}, "name": "b", "latency": 0.02}]'),
];

for (const hash of PERMALINKS) {
  test(`index.html on a plain static host keeps a hostile permalink inert: ${hash.slice(0, 70)}`, async ({ page, problems }) => {
    let dialogs = 0;
    page.on('dialog', (d) => { dialogs++; d.dismiss(); });
    await page.goto(`${base}/index.html${hash}`);
    await page.waitForFunction(() => window.napkin && document.querySelector('[role=tabpanel]:not([hidden])'));
    // Edit a cell of the row editor when there is one: the rows are copied and written back.
    const cell = page.locator('form[data-estimator="serve.pipeline"] .json-table input').first();
    if (hash.includes('stages') && (await cell.count())) {
      await cell.fill('{"polluted": 1}');
      await page.locator('form[data-estimator="serve.pipeline"] .json-table input').nth(1).fill('c');
    }
    await page.mouse.move(300, 300);
    await page.waitForTimeout(150);
    const report = await page.evaluate(() => {
      const handlers = [];
      for (const el of document.querySelectorAll('*')) for (const a of el.attributes) if (/^on/i.test(a.name)) handlers.push(`${el.tagName} ${a.name}`);
      const inherited = [];
      for (const k in {}) inherited.push(k);
      return { pwned: window.__pwned, handlers, inherited, x: ({}).x, polluted: [].polluted };
    });
    expect(report).toEqual({ pwned: undefined, handlers: [], inherited: [], x: undefined, polluted: undefined });
    expect(dialogs).toBe(0);
    expect(problems).toEqual([]);
  });
}

// A hostile parent frames embed.html without origin=: it hears the frame's height, never a
// score, and the junk it posts into the frame changes nothing there.
test('a parent of another site gets only height messages, and its messages do nothing to the frame', async ({ page, problems }) => {
  const port = new URL(base).port;
  const frame = `${base}/embed.html#problem=train.chinchilla.tokens&seed=0`;
  await page.goto(`http://localhost:${port}/hostile-parent.html?frame=${encodeURIComponent(frame)}`);
  const f = page.frameLocator('#frame');
  await f.locator('[name="answer"]').fill('1 token');
  await f.getByRole('button', { name: 'Check' }).click();
  await expect(f.locator('.verdict')).toHaveAttribute('data-verdict', 'wrong');
  await page.waitForTimeout(300);
  const messages = await page.evaluate(() => window.__messages);
  expect(messages.length).toBeGreaterThan(0);
  expect(messages.filter((m) => !m || m.type !== 'napkin-height')).toEqual([]);
  const inFrame = await page.frames().find((x) => x.url().startsWith(`${base}/embed.html`)).evaluate(() => {
    const inherited = [];
    for (const k in {}) inherited.push(k);
    return { pwned: window.__pwned, inherited, answer: document.querySelector('#embed > *').shadowRoot.querySelector('[name="answer"]').value };
  });
  expect(inFrame).toEqual({ pwned: undefined, inherited: [], answer: '1 token' });
  expect(problems).toEqual([]);
});

// make run serves dist/napkin.html with a header CSP: it must list the page's inline scripts,
// or the single file is blank there (issue #30.22).
test('dist/napkin.html served with the header CSP runs', async ({ page, problems }) => {
  await page.goto('/napkin.html#tab=training');
  await page.waitForFunction(() => window.napkin && document.querySelector('[role=tabpanel]:not([hidden])'), null, { timeout: 15000 });
  await expect(page.locator('form[data-estimator="train.time"] [data-output="days"]')).not.toHaveText('');
  expect(problems).toEqual([]);
});
