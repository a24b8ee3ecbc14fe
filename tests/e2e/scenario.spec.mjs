// The scenario bar (issue #11.5) as a person sees it: pick a model, an accelerator or a layout
// once and every card of the tab shows it; a value typed into a card stays that card's own and
// says so; the permalink brings the scenario back; the bar fits a phone and passes axe-core.
import { createRequire } from 'node:module';
import { test, expect, ready, openTab } from './fixtures.mjs';

const require = createRequire(import.meta.url);
const AXE = require.resolve('axe-core/axe.min.js');

const bar = (page) => page.locator('.scenario-bar:visible');
const field = (page, id, name) => page.locator(`form[data-estimator="${id}"] [name="${name}"]`);
const output = (page, id, name) => page.locator(`form[data-estimator="${id}"] [data-output="${name}"]`);

// The cards of the visible tab whose inputs a model preset fills, from the page's own registry.
async function modelCards(page) {
  return page.evaluate(() => {
    const reg = window.napkin.list();
    const model = reg.presets.find((p) => p.kind === 'model' && !p.estimators.length);
    return [...document.querySelectorAll('[role=tabpanel]:not([hidden]) form[data-estimator]')]
      .map((f) => reg.estimators.find((e) => e.id === f.dataset.estimator))
      .filter((e) => e.inputs.some((i) => Object.hasOwn(model.values, i.preset_key)))
      .map((e) => e.id);
  });
}

test('choosing a model in the bar changes every card of the tab that has a model input', async ({ page, problems }) => {
  await page.goto('/index.html#tab=memory');
  await ready(page);
  const ids = await modelCards(page);
  expect(ids.length).toBeGreaterThanOrEqual(2);
  const before = {};
  for (const id of ids) before[id] = await page.locator(`form[data-estimator="${id}"] .outputs`).innerText();
  await bar(page).getByLabel('Model').selectOption({ label: 'Llama 3 70B' });
  await expect(bar(page).locator('.bar-summary')).toHaveText(/Llama 3 70B/);
  for (const id of ids) {
    const card = page.locator(`form[data-estimator="${id}"]`);
    await expect(card.locator('.shared-note')).toBeVisible();
    await expect(card.locator('.shared-note')).toContainText('Follows the scenario (Llama 3 70B)');
    expect(await card.locator('.outputs').innerText(), id).not.toBe(before[id]);
  }
  // Llama 3 70B has 70,553,706,496 parameters (Meta's released config): the card shows it.
  await expect(field(page, 'mem.training', 'params')).toHaveValue(/^70\.55/);
  expect(problems).toEqual([]);
});

test("a value typed into a card stays the card's own, and one click takes the scenario's", async ({ page }) => {
  await page.goto('/index.html#tab=memory');
  await ready(page);
  await bar(page).getByLabel('Tensor parallel (TP)').fill('8');
  await expect(field(page, 'mem.training', 'tp')).toHaveValue('8');
  await expect(field(page, 'mem.activations', 'tp')).toHaveValue('8');
  await field(page, 'mem.training', 'tp').fill('4');
  const note = page.locator('form[data-estimator="mem.training"] .shared-note');
  await expect(note).toContainText("This card’s own value: Tensor parallel");
  // The bar moves on; the card keeps its own 4, the other card follows.
  await bar(page).getByLabel('Tensor parallel (TP)').fill('2');
  await expect(field(page, 'mem.training', 'tp')).toHaveValue('4');
  await expect(field(page, 'mem.activations', 'tp')).toHaveValue('2');
  await note.getByRole('button', { name: 'Use the scenario’s values' }).click();
  await expect(field(page, 'mem.training', 'tp')).toHaveValue('2');
  await expect(note).not.toContainText('own value');
});

test('a degree that is not a whole number is refused in the bar, naming the field', async ({ page }) => {
  await page.goto('/index.html#tab=memory');
  await ready(page);
  const tp = bar(page).getByLabel('Tensor parallel (TP)');
  for (const bad of ['0', '2.5', 'eight']) {
    await tp.fill(bad);
    await expect(tp).toHaveAttribute('aria-invalid', 'true');
    await expect(bar(page).locator('.field-error:visible')).toContainText('Tensor parallel (TP)');
    await expect(field(page, 'mem.training', 'tp')).toHaveValue('1');
  }
  await tp.fill('4');
  await expect(bar(page).locator('.field-error:visible')).toHaveCount(0);
  await expect(field(page, 'mem.training', 'tp')).toHaveValue('4');
});

test('the scenario follows the user across tabs, is hidden where no card follows it, and comes back from a permalink', async ({ page }) => {
  await page.goto('/index.html#tab=inference');
  await ready(page);
  await bar(page).getByLabel('Model').selectOption({ label: 'Llama 3 70B' });
  await bar(page).getByLabel('Accelerator').selectOption({ index: 5 });
  const gpu = await bar(page).getByLabel('Accelerator').evaluate((s) => s.selectedOptions[0].textContent);
  const kv = await output(page, 'infer.kv', 'bytes_per_token').innerText();
  // Llama 3 70B: 80 layers × 8 KV heads × 128 × 2 (K and V) × 2 bytes = 327,680 B per token.
  expect(kv).toMatch(/327\.7 kB/);
  await openTab(page, 'memory');
  await expect(bar(page).getByLabel('Model')).toHaveValue('llama3-70b');
  await expect(field(page, 'mem.training', 'params')).toHaveValue(/^70\.55/);
  for (const other of ['start', 'practice']) {
    await openTab(page, other);
    await expect(page.locator('.scenario-bar:visible')).toHaveCount(0);
  }
  await page.waitForTimeout(300);  // the hash is written 150 ms after the last change
  const url = page.url();
  expect(url).toContain('s.model=llama3-70b');
  const fresh = await page.context().newPage();
  await fresh.goto(url.replace('tab=practice', 'tab=inference'));
  await ready(fresh);
  await expect(bar(fresh).getByLabel('Model')).toHaveValue('llama3-70b');
  expect(await bar(fresh).getByLabel('Accelerator').evaluate((s) => s.selectedOptions[0].textContent)).toBe(gpu);
  await expect(output(fresh, 'infer.kv', 'bytes_per_token')).toHaveText(kv);
  await bar(fresh).getByRole('button', { name: 'Clear the scenario' }).click();
  await expect(fresh.locator('form[data-estimator="infer.kv"] .shared-note')).toBeHidden();
});

test.describe('at 390 px', () => {
  test.use({ bypassCSP: true });  // axe-core is injected as an inline script
  test('with a scenario chosen the tab fits a 390 px phone and axe-core finds nothing serious', async ({ page }) => {
    await page.setViewportSize({ width: 390, height: 844 });
    await page.goto('/index.html#tab=memory&s.model=llama3-70b&s.gpu=h100&s.tp=8');
    await ready(page);
    await expect(bar(page).locator('.bar-summary')).toContainText('Llama 3 70B · NVIDIA H100');
    await expect(page.locator('.shared-note:visible').first()).toBeVisible();
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    await page.addScriptTag({ path: AXE });
    const serious = await page.evaluate(async () => {
      const r = await window.axe.run(document, { resultTypes: ['violations'] });
      return r.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => `${v.id}: ${v.nodes.length} × ${v.nodes.slice(0, 3).map((n) => n.target.join(" ") + " " + (n.any[0]?.message || "")).join(" | ")}`);
    });
    expect(serious).toEqual([]);
  });
});

// Issue #30 item 6: the link menu separates vendor figures from the worked examples' own (the
// core declares each preset's group), and a card's "follows" note names a few inputs, not 40.
test('the link menu groups its presets as the core declares, and the follows note stays short', async ({ page }) => {
  await page.goto('/index.html#tab=comm');
  await ready(page);
  const groups = await page.evaluate(() => {
    const presets = window.napkin.list().presets.filter((p) => p.kind === 'link');
    return [...new Set(presets.map((p) => p.group).filter(Boolean))];
  });
  expect(groups.length).toBeGreaterThanOrEqual(2);
  const labels = await bar(page).getByLabel('Network link').locator('optgroup').evaluateAll((gs) => gs.map((g) => g.label));
  expect(labels).toEqual(groups);
  // A worked example's figure sits in its own section, not beside the vendors'.
  const worked = bar(page).getByLabel('Network link').locator('optgroup', { hasText: '600 GB/s' });
  await expect(worked).toHaveAttribute('label', /Worked examples/);
  // A model fills dozens of inputs of a serving card: the note counts them and lists them on request.
  await page.goto('/index.html#tab=inference');
  await ready(page);
  await bar(page).getByLabel('Model').selectOption({ label: 'Llama 3 70B' });
  const note = page.locator('form[data-estimator="serve.engine"] .shared-note');
  await expect(note).toContainText(/Follows the scenario \(Llama 3 70B\): \d+ inputs \(/);
  const first = await note.locator('p').first().innerText();
  expect(first.split(',').length).toBeLessThanOrEqual(6);
  await note.getByText('Which inputs').click();
  await expect(note.locator('details p')).toContainText('Layers');
});
