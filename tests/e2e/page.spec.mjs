import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { test, expect, ready, openTab } from './fixtures.mjs';

const DIST = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../dist');

test('loads over http under the strict CSP with no console errors', async ({ page, problems }) => {
  const response = await page.goto('/index.html#tab=training');
  expect(response.headers()['content-security-policy']).toContain("script-src 'self' 'wasm-unsafe-eval'");
  await ready(page);
  await expect(page.locator('[data-estimator="train.time"] [data-output="days"]')).toHaveText(/\d/);
  expect(problems).toEqual([]);
});

test('the single file works from file:// with no console errors', async ({ page, problems }) => {
  await page.goto('file://' + path.join(DIST, 'napkin.html') + '#tab=training');
  await ready(page);
  await expect(page.locator('[data-estimator="train.chinchilla"] [data-output="optimal_tokens"]')).toHaveText('1.4T tok');
  expect(problems).toEqual([]);
});

test('napkin-ready fires and window.napkin is the JS API', async ({ page }) => {
  await page.addInitScript(() => document.addEventListener('napkin-ready', () => (window.__readyFired = true)));
  await page.goto('/index.html');
  await ready(page);
  const days = await page.evaluate(() => window.napkin.run('train.time', { params: 70e9, tokens: 2e12, gpus: 512, peak_flops: 312e12 }).outputs.days);
  expect(days).toBeCloseTo(121.72, 2);
  expect(await page.evaluate(() => window.__readyFired)).toBe(true);
});

test('every registry estimator has a form with its inputs and outputs', async ({ page }) => {
  test.setTimeout(120000);  // ~500 locator checks: on a loaded 2-core machine this takes a while
  await page.goto('/index.html');
  await ready(page);
  const reg = await page.evaluate(() => window.napkin.list());
  for (const est of reg.estimators) {
    await openTab(page, est.area);
    const form = page.locator(`form[data-estimator="${est.id}"]`);
    await expect(form, est.id).toBeVisible();
    for (const i of est.inputs) await expect(form.locator(`[name="${i.name}"]`), `${est.id}.${i.name}`).toHaveCount(1);
    for (const o of est.outputs.filter((x) => !x.hidden)) await expect(form.locator(`[data-output="${o.name}"]`), `${est.id}.${o.name}`).toHaveCount(1);
    await expect(form, `${est.id} runs on its example`).not.toHaveClass(/stale/);
  }
});

test('a newcomer answers the LLaMA-2-70B on 512 A100s question and sees why', async ({ page }) => {
  await page.goto('/index.html#tab=training');
  await ready(page);
  const form = page.locator('form[data-estimator="train.time"]');
  await form.locator('select[data-preset-kind="model"]').selectOption('llama2-70b');
  await form.locator('select[data-preset-kind="gpu"]').selectOption('a100');
  await form.locator('[name="gpus"]').fill('512');
  // The preset carries Llama 2 70B's exact 68.98B weights (the worked example's 121.7 days
  // uses the nominal 70B): 6 · 68.98e9 · 2e12 / (512 · 312e12 · 0.5) s = 119.9 days.
  await expect(form.locator('[data-output="days"]')).toHaveText('119.9');
  await form.locator('details.derivation > summary').click();
  await expect(form.locator('.step').first()).toContainText('Total training compute');
  await expect(form.locator('.step math').first()).toBeVisible();
});

test('typing updates results live; a bad value shows an inline error naming the input', async ({ page }) => {
  await page.goto('/index.html#tab=training');
  await ready(page);
  const form = page.locator('form[data-estimator="train.time"]');
  const days = form.locator('[data-output="days"]');
  const before = Number(await days.getAttribute('data-value'));
  await form.locator('[name="gpus"]').fill('1024');
  await expect.poll(async () => Number(await days.getAttribute('data-value'))).toBeCloseTo(before / 2, 6);
  for (const bad of ['abc', '-5', '1e400', '']) {
    await form.locator('[name="params"]').fill(bad);
    await expect(form.locator('#in-train-time-params-err')).toContainText('params');
    await expect(form).toHaveClass(/stale/);
  }
  await expect(page.locator('body')).not.toContainText('NaN');
  await form.locator('[name="params"]').fill('70B');
  await expect(form).not.toHaveClass(/stale/);
});

test('a permalink restores the exact state', async ({ page, context }) => {
  await page.goto('/index.html');
  await ready(page);
  await openTab(page, 'training');
  const form = page.locator('form[data-estimator="train.time"]');
  await form.locator('[name="gpus"]').fill('2048');
  await form.locator('[name="mfu"]').fill('40%');
  await page.check('#binary');
  await expect.poll(() => page.evaluate(() => location.hash)).toContain('gpus');
  await expect.poll(() => page.evaluate(() => location.hash)).toContain('mfu');
  await expect.poll(() => page.evaluate(() => location.hash)).toContain('gib=1');
  const url = page.url();
  const fresh = await context.newPage();
  await fresh.goto(url);
  await ready(fresh);
  const f2 = fresh.locator('form[data-estimator="train.time"]');
  await expect(f2.locator('[name="gpus"]')).toHaveValue('2048');
  await expect(f2.locator('[name="mfu"]')).toHaveValue('40%');
  await expect(fresh.locator('#binary')).toBeChecked();
  await expect(f2.locator('[data-output="days"]')).toHaveText(await form.locator('[data-output="days"]').textContent());
});

test('charts render from sweeps and follow the inputs', async ({ page }) => {
  await page.goto('/index.html#tab=training');
  await ready(page);
  for (const id of ['chinchilla-tokens', 'train-days-gpus', 'train-days-mfu']) {
    const chart = page.locator(`[data-chart="${id}"]`);
    await expect(chart.locator('canvas')).toHaveCount(1);
    await expect(chart.locator('.chart-legend')).toBeVisible();
  }
  const legend = page.locator('[data-chart="train-days-gpus"] .chart-legend');
  await expect(legend).toContainText('A100');
  await expect(legend).toContainText('Your inputs');
  // The legend reads the values at the user's own x without hovering: the "Your inputs" row
  // shows the card's own result (days), and hovering the far right moves it to another x.
  // (the legend shows 3 significant digits, the card 4).
  const days = parseFloat(await page.locator('form[data-estimator="train.time"] [data-output="days"]').textContent());
  const yours = legend.locator('tr', { hasText: 'Your inputs' }).locator('td');
  expect(Math.abs(parseFloat(await yours.textContent()) / days - 1)).toBeLessThan(0.002);
  const canvas = page.locator('[data-chart="train-days-gpus"] canvas');
  const box = await canvas.boundingBox();
  await canvas.hover({ position: { x: box.width - 45, y: box.height / 2 } });
  await expect.poll(async () => parseFloat(await yours.textContent())).toBeLessThan(days / 2);
});

test('the pipeline editor adds, reorders and removes stages, with the budget bar', async ({ page }) => {
  await page.goto('/index.html#tab=inference');
  await ready(page);
  const form = page.locator('form[data-estimator="serve.pipeline"]');
  await expect(form.locator('[data-output="total_latency"]')).toHaveText('153.5 ms');
  await form.getByRole('button', { name: '+ Add a row' }).click();
  await expect(form.locator('[data-output="stage_count"]')).toHaveText('4');
  await expect(form.locator('.budget-bar')).toHaveClass(/over/);
  // The table's headings and units are the registry's declared columns, not the rows' keys.
  const table = form.locator('[data-output="stages"] table');
  await expect(table.locator('th').first()).toHaveText('Stage');
  await expect(table.locator('th', { hasText: /^Latency$/ })).toHaveCount(1);
  await expect(table.locator('th', { hasText: /^(latency|avg_wait)$/ })).toHaveCount(0);
  await expect(form.locator('.budget-legend')).toHaveText(/ms of a 200 ms latency budget — over by/);
  await form.getByRole('button', { name: 'Move row 4 up' }).click();
  await expect(form.locator('[name="stages"]')).toHaveValue(/"Stage 4".*"Heavy ranking"/);
  await form.getByRole('button', { name: 'Remove row 3' }).click();
  await expect(form.locator('[data-output="total_latency"]')).toHaveText('153.5 ms');
  await form.locator('[name="stages"]').fill('[]');
  await expect(form.locator('.field-error').filter({ hasText: 'stages' })).toBeVisible();
  await form.locator('[name="stages"]').fill('[{"name": "x", "batch": 10, "inference": 0}');
  await expect(form).toHaveClass(/stale/);
});

test('a slider under a chart moves its input and the results follow', async ({ page }) => {
  await page.goto('/index.html#tab=comm');
  await ready(page);
  const form = page.locator('form[data-estimator="comm.tp_step"]');
  const share = form.locator('[data-output="comm_fraction"]');
  const before = Number(await share.getAttribute('data-value'));
  await form.locator('.x-slider').first().evaluate((s) => { s.value = '900'; s.dispatchEvent(new Event('input')); });
  await expect.poll(async () => Number(await share.getAttribute('data-value'))).not.toBe(before);
  await expect(form.locator('[name="tokens"]')).not.toHaveValue('1 tok');
});
