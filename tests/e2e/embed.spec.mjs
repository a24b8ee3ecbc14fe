// Embedding as a study site does it (issue #30.11, .16, .17): a host page on another site
// (http://localhost:<its own port>, while Napkin is served from 127.0.0.1; both loopback, so
// Chromium's private-network checks let the host load Napkin) with the element pasted from
// the README, or with embed.html in an iframe, and a parent that listens to every message the
// frame sends.
import http from 'node:http';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { test, expect, axe } from './fixtures.mjs';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
let HOST;
let server;
const bodies = new Map();

test.beforeAll(async () => {
  server = http.createServer((req, res) => {
    if (req.url === '/favicon.ico') return res.writeHead(204).end();
    const body = bodies.get(req.url);
    res.writeHead(body ? 200 : 404, { 'content-type': 'text/html; charset=utf-8' });
    res.end(body || '');
  });
  await new Promise((ok) => server.listen(0, '127.0.0.1', ok));
  HOST = `http://localhost:${server.address().port}`;
});
test.afterAll(() => server.close());

// Serves `body` as a page of the host site and opens it.
async function hostPage(page, body) {
  const url = `/page${bodies.size}`;
  bodies.set(url, body);
  await page.goto(`${HOST}${url}`);
}

// The README's own snippet, pasted as written, between two paragraphs of the host page.
test('the README snippet pasted as written embeds a calculator and leaves the rest of the page visible', async ({ page, baseURL, problems }) => {
  const readme = fs.readFileSync(path.join(ROOT, 'README.md'), 'utf8');
  const snippet = readme.match(/<napkin-calculator estimator="train\.time"[\s\S]*?(?:<\/napkin-calculator>|`)/)[0].replace(/`$/, '');
  expect(snippet).toContain('</napkin-calculator>');
  await hostPage(page, `<!doctype html><html lang="en"><title>Host</title><main><p>Before</p>
    <script src="${baseURL}/napkin-embed.js"></script>
    ${snippet}
    <p id="after">The rest of the host page</p></main></html>`);
  await expect(page.locator('napkin-calculator [data-output="days"]')).not.toHaveText('');
  await expect(page.locator('napkin-calculator [name="gpus"]')).toHaveValue('512');
  await expect(page.locator('#after')).toBeVisible();
  expect(problems).toEqual([]);
});

// The snippet as the README once had it (no closing tag): what follows is parsed as the
// element's children, which a shadow root without a slot never shows.
test('an element without its closing tag still shows the host page after it', async ({ page, baseURL }) => {
  await hostPage(page, `<!doctype html><html lang="en"><title>Host</title><main>
    <script src="${baseURL}/napkin-embed.js"></script>
    <napkin-calculator estimator="train.time" params="70B" gpus="512">
    <h2 id="after">Exercise 2</h2><p>The rest of the host page</p></main></html>`);
  await expect(page.locator('napkin-calculator [name="gpus"]')).toHaveValue('512');
  await expect(page.locator('#after')).toBeVisible();
  await expect(page.getByText('The rest of the host page')).toBeVisible();
});

// An embedded problem loads only itself and the other parts of its group from the bank (the
// whole bank's load was most of its wait), and still says which part it is; an id the bank
// does not hold says so.
test('an embedded part of a multi-part problem says which part it is; an unknown id says so', async ({ page, baseURL, problems }) => {
  const fetched = [];
  page.on('request', (r) => fetched.push(new URL(r.url()).pathname));
  await hostPage(page, `<!doctype html><html lang="en"><title>Host</title><main>
    <script src="${baseURL}/napkin-embed.js"></script>
    <napkin-problem id="third" problem="comm.parallelism.fsdp_volume" seed="0"></napkin-problem>
    <napkin-problem id="nothing" problem="no.such.problem"></napkin-problem></main></html>`);
  await expect(page.locator('#third .problem-part')).toHaveText('Part (c) of (a)–(e)');
  await expect(page.locator('#nothing .error-box')).toContainText('no problem "no.such.problem"');
  const ids = await page.evaluate(() => window.napkin.problems().problems.map((p) => p.id));
  expect(ids).toEqual(['comm.parallelism.dp_time', 'comm.parallelism.dp_total', 'comm.parallelism.fsdp_volume',
    'comm.parallelism.tp_ops', 'comm.parallelism.pp_ops']);
  expect(fetched.filter((p) => p.endsWith('napkin-problems.json'))).toHaveLength(1);
  expect(problems).toEqual([]);
});

// `hidden` is comm.tp_step's hidden size and also the HTML attribute that hides an element.
// The element reads any input as in-NAME; the iframe's hash needs no prefix.
test('an input named like an HTML attribute: in-hidden on the element, hidden= in the iframe hash', async ({ page, baseURL, problems }) => {
  await hostPage(page, `<!doctype html><html lang="en"><title>Host</title><main>
    <script src="${baseURL}/napkin-embed.js"></script>
    <napkin-calculator id="prefixed" estimator="comm.tp_step" in-hidden="8192" charts="none"></napkin-calculator>
    <napkin-calculator id="plain-input" estimator="train.time" in-gpus="2048" charts="none"></napkin-calculator>
    <iframe id="frame" title="Napkin" width="800" height="600" src="${baseURL}/embed.html#estimator=comm.tp_step&hidden=8192&charts=none"></iframe>
    </main></html>`);
  const prefixed = page.locator('#prefixed');
  await expect(prefixed).toBeVisible();
  await expect(prefixed.locator('[name="hidden"]')).toHaveValue('8192');
  await expect(prefixed.locator('[data-output]').first()).not.toHaveText('—');
  await expect(page.locator('#plain-input [name="gpus"]')).toHaveValue('2048');
  const frame = page.frameLocator('#frame');
  await expect(frame.locator('napkin-calculator')).toBeVisible();
  await expect(frame.locator('[name="hidden"]')).toHaveValue('8192');
  await expect(frame.locator('[data-output]').first()).not.toHaveText('—');
  expect(problems).toEqual([]);
});

// A parent that records every message from the frame, and answers the frame's problem.
async function scoresFromFrame(page, baseURL, hash) {
  await hostPage(page, `<!doctype html><html lang="en"><title>Host</title><main>
    <iframe id="frame" title="Napkin" width="800" height="400" src="${baseURL}/embed.html${hash}"></iframe></main>
    <script>window.__messages = []; addEventListener('message', (e) => __messages.push(e.data));</script></html>`);
  const frame = page.frameLocator('#frame');
  await frame.locator('[name="answer"]').fill('1 token');
  await frame.getByRole('button', { name: 'Check' }).click();
  await expect(frame.locator('.verdict')).toHaveAttribute('data-verdict', 'wrong');
  await page.waitForTimeout(300);
  return page.evaluate(() => window.__messages);
}

test('without origin= the frame posts its height only; the score goes only to a declared origin', async ({ page, baseURL, problems }) => {
  const open = await scoresFromFrame(page, baseURL, '#problem=train.chinchilla.tokens&seed=0');
  expect(open.length).toBeGreaterThan(0);
  expect(open.map((m) => m.type).filter((t) => t !== 'napkin-height')).toEqual([]);
  const declared = await scoresFromFrame(page, baseURL, `#problem=train.chinchilla.tokens&seed=0&origin=${encodeURIComponent(HOST)}`);
  expect(declared.filter((m) => m.type === 'napkin-score')).toEqual([
    expect.objectContaining({ type: 'napkin-score', problem: 'train.chinchilla.tokens', seed: 0, verdict: 'wrong', score: 0 }),
  ]);
  // A declared origin that is not the parent's: the browser drops both kinds.
  const other = await scoresFromFrame(page, baseURL, '#problem=train.chinchilla.tokens&seed=0&origin=https://elsewhere.test');
  expect(other).toEqual([]);
  expect(problems).toEqual([]);
});

// Chromium renders a cross-origin frame that is off screen only when it scrolls into view, so
// a height measured by a ResizeObserver alone arrived then, and the page jumped.
test('a cross-origin iframe below the fold reports its real height before it is scrolled into view', async ({ page, baseURL }) => {
  await hostPage(page, `<!doctype html><html lang="en"><title>Host</title><main>
    <div style="height: 3000px">A long page</div>
    <iframe id="frame" title="Napkin" width="800" height="150" src="${baseURL}/embed.html#problem=train.chinchilla.tokens&seed=0"></iframe></main>
    <script>window.__heights = []; addEventListener('message', (e) => { if (e.data && e.data.type === 'napkin-height') __heights.push(e.data.height); });</script></html>`);
  await expect.poll(() => page.evaluate(() => Math.max(0, ...window.__heights)), { timeout: 8000 }).toBeGreaterThan(250);
  expect(await page.evaluate(() => scrollY)).toBe(0);
});

test.describe('embed.html as a document', () => {
  test.use({ bypassCSP: true });
  test('has a main landmark and a heading, and axe-core finds nothing', async ({ page }) => {
    for (const hash of ['#problem=train.chinchilla.tokens&seed=0', '#estimator=comm.tp_step&hidden=4096']) {
      await page.goto(`/embed.html${hash}`);
      await page.waitForFunction(() => document.querySelector('#embed > napkin-calculator, #embed > napkin-problem')?.shadowRoot?.querySelector('form, article'));
      await expect(page.getByRole('main')).toHaveCount(1);
      await expect(page.getByRole('heading', { level: 1 })).toHaveCount(1);
      expect(await axe(page, 'html')).toEqual([]);
    }
  });
});

// A price makes train.time add a cost step, `\$ = H \cdot p`, which once showed as raw TeX
// (issue #30.3): the derivation shows a dollar sign and no backslash.
test('the cost step of a derivation shows a dollar sign, not TeX', async ({ page, baseURL, problems }) => {
  await hostPage(page, `<!doctype html><html lang="en"><title>Host</title><main>
    <script src="${baseURL}/napkin-embed.js"></script>
    <napkin-calculator estimator="train.time" in-price_per_gpu_hour="2" charts="none"></napkin-calculator></main></html>`);
  const derivation = page.locator('napkin-calculator details.derivation');
  await derivation.evaluate((d) => { d.open = true; });
  await expect(derivation).toContainText('$');
  await expect(derivation.locator('math').first()).toBeVisible();
  expect(await derivation.evaluate((d) => d.textContent)).not.toContain('\\');
  expect(await derivation.locator('code').allTextContents()).toEqual([]);
  expect(problems).toEqual([]);
});
