// dist/ copied to a plain static host (no CSP header): the embed page must stay inert under
// hostile hashes. The pages' own <meta> CSP and embed-page.js's allow-list are what protect it.
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
      return { pwned: window.__pwned, handlers, style: host.getAttribute('style'), attrs: host.getAttributeNames() };
    });
    expect(report.pwned).toBeUndefined();
    expect(report.handlers).toEqual([]);
    expect(report.style).toBeNull();
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
