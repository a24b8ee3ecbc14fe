// The Plan card (issue #12, SPEC §9): the layout search in the page's Web Worker, over http
// and from file://, with progress, cancel, a page that keeps answering while it runs, and the
// card seen at phone width and by axe-core.
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { createRequire } from 'node:module';
import { test, expect, ready } from './fixtures.mjs';

const DIST = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../dist');
const AXE = createRequire(import.meta.url).resolve('axe-core/axe.min.js');
// A job whose space takes about a second (1.8 M layouts): long enough to see progress, cancel
// and type elsewhere while it runs.
const BIG = '3072';
// About 2.9 M layouts: time to reach Cancel by mouse or keyboard before it finishes.
const HUGE = '24576';

// How fast a search finishes depends on the machine (2.9 M layouts take 0.2 s natively): the
// tests of what the page does *while* one runs hold the worker's answer (its progress messages
// pass) until they call window.releaseSearch(), so Cancel and the progress bar stay up.
async function holdSearch(page) {
  await page.addInitScript(() => {
    const Base = window.Worker;
    let hold = true;
    const held = [];
    window.Worker = class extends Base {
      set onmessage(fn) {
        super.onmessage = fn && ((e) => (hold && !(e.data && e.data.progress) ? held.push(() => fn(e)) : fn(e)));
      }
      get onmessage() {
        return super.onmessage;
      }
    };
    window.releaseSearch = () => {
      hold = false;
      held.splice(0).forEach((f) => f());
    };
  });
}

async function openPlan(page, url) {
  await page.goto(url);
  await ready(page);
  const plan = page.locator('form[data-search]');
  const area = await page.evaluate(() => {
    const reg = window.napkin.list();
    const est = reg.estimators.find((e) => e.id === reg.search.estimator);
    return est ? est.area : reg.estimators[0].area;
  });
  await page.click(`[data-tab="${area}"]`);
  await expect(plan).toBeVisible();
  return plan;
}

for (const [label, url] of [['http', '/index.html'], ['file://', 'file://' + path.join(DIST, 'napkin.html')]]) {
  test(`a search over ${label} shows progress, then the best layouts, rejections and the Pareto chart`, async ({ page, problems }) => {
    const plan = await openPlan(page, url);
    await plan.locator('[name="gpus"]').fill(BIG);
    // A fast machine can finish the search before a poll sees the progress bar: record, in
    // the page, whether the bar and Cancel were ever shown while it ran.
    await plan.evaluate((form) => {
      window.seenWhileRunning = { progress: false, cancel: false };
      const look = () => {
        const p = form.querySelector('progress');
        if (p && !p.hidden) window.seenWhileRunning.progress = true;
        for (const b of form.querySelectorAll('button'))
          if (b.textContent.trim() === 'Cancel' && !b.hidden && b.offsetParent) window.seenWhileRunning.cancel = true;
      };
      new MutationObserver(look).observe(form, { attributes: true, childList: true, subtree: true });
    });
    await plan.getByRole('button', { name: 'Search' }).click();
    await expect(plan.locator('.plan-table tbody tr').first()).toBeVisible({ timeout: 20000 });
    expect(await page.evaluate(() => window.seenWhileRunning)).toEqual({ progress: true, cancel: true });
    await expect(plan.locator('progress')).toBeHidden();
    await expect(plan.getByRole('status')).toHaveText(/layouts in .* per second/);
    const rows = await plan.locator('.plan-table tbody tr').count();
    expect(rows).toBeGreaterThanOrEqual(3);
    // Sorted by step time; every row carries its numbers for scripts (data-value, base units).
    const times = await plan.locator('.plan-table [data-output="step_time"]').evaluateAll((tds) => tds.map((td) => Number(td.dataset.value)));
    expect(times).toEqual([...times].sort((a, b) => a - b));
    await expect(plan.locator('.plan-rejected li').first()).toHaveText(/^[\d.]+( [kM])?: \w/);
    await expect(plan.locator('figure.chart canvas')).toBeVisible();
    expect(problems).toEqual([]);
  });
}

test('Cancel stops a running search, and the next search still answers', async ({ page }) => {
  await holdSearch(page);
  const plan = await openPlan(page, '/index.html');
  await plan.locator('[name="gpus"]').fill(HUGE);
  await plan.getByRole('button', { name: 'Search' }).click();
  await expect(plan.getByRole('button', { name: 'Cancel' })).toBeVisible();
  await plan.getByRole('button', { name: 'Cancel' }).click();
  await expect(plan.getByRole('status')).toHaveText('Search cancelled.');
  await expect(plan.getByRole('button', { name: 'Cancel' })).toBeHidden();
  await expect(plan.locator('.plan-table')).toHaveCount(0);
  await page.evaluate(() => window.releaseSearch());
  await plan.locator('[name="gpus"]').fill('512');
  await plan.getByRole('button', { name: 'Search' }).click();
  await expect(plan.locator('.plan-table tbody tr').first()).toBeVisible({ timeout: 20000 });
});

test('typing into another card while a search runs updates that card at once', async ({ page }) => {
  await holdSearch(page);
  const plan = await openPlan(page, '/index.html#tab=training');
  await page.click('[data-tab="training"]');
  const other = page.locator('form[data-estimator="train.time"]');
  const days = other.locator('[data-output="days"]');
  const before = await days.getAttribute('data-value');
  await plan.locator('[name="gpus"]').fill(HUGE);
  await plan.getByRole('button', { name: 'Search' }).click();
  await expect(plan.locator('progress')).toBeVisible();
  await other.locator('[name="gpus"]').fill('2048');
  // The card answered while the search was still running: the page did not freeze.
  await expect(days).not.toHaveAttribute('data-value', before, { timeout: 500 });
  await expect(plan.getByRole('button', { name: 'Cancel' })).toBeVisible();
  await page.evaluate(() => window.releaseSearch());
  await expect(plan.locator('.plan-table tbody tr').first()).toBeVisible({ timeout: 30000 });
});

test('a bad input is named on its field, and the search does not start', async ({ page }) => {
  const plan = await openPlan(page, '/index.html');
  await plan.locator('[name="gpus"]').fill('many');
  await plan.getByRole('button', { name: 'Search' }).click();
  await expect(plan.locator('[name="gpus"]')).toHaveAttribute('aria-invalid', 'true');
  await expect(plan.locator('#plan-gpus-err')).toContainText('not a number');
  await expect(plan.locator('.plan-table')).toHaveCount(0);
});

test.describe('the Plan card, seen', () => {
  test.use({ bypassCSP: true });
  for (const width of [1280, 390]) {
    test(`with results: keyboard only, axe 0 serious, no sideways scroll at ${width} px`, async ({ page }) => {
      await page.setViewportSize({ width, height: 900 });
      const plan = await openPlan(page, '/index.html');
      // Keyboard: Enter in a field runs the search (the form's submit).
      await plan.locator('[name="gpus"]').focus();
      await page.keyboard.press('Enter');
      await expect(plan.locator('.plan-table tbody tr').first()).toBeVisible({ timeout: 20000 });
      await plan.locator('details').evaluateAll((ds) => ds.forEach((d) => (d.open = true)));
      await page.waitForTimeout(200);
      const { scroll, client } = await page.evaluate(() => ({ scroll: document.documentElement.scrollWidth, client: document.documentElement.clientWidth }));
      expect(scroll).toBeLessThanOrEqual(client);
      await page.addScriptTag({ path: AXE });
      const violations = await page.evaluate(async () => {
        const r = await window.axe.run(document.querySelector('form[data-search]'), { resultTypes: ['violations'] });
        return r.violations.filter((v) => v.impact === 'critical' || v.impact === 'serious').map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).slice(0, 3).join(' | ')}`);
      });
      expect(violations).toEqual([]);
      await plan.screenshot({ path: `test-results/plan-${width}.png` });
    });
  }
});

test('the Plan card follows the scenario bar, and keeps a value typed into it', async ({ page }) => {
  const plan = await openPlan(page, '/index.html');
  // An input of the card that a model preset fills (by declared meaning), and that preset.
  const pick = await page.evaluate(() => {
    const reg = window.napkin.list();
    for (const p of reg.presets.filter((x) => x.kind === 'model' && !x.estimators.length))
      for (const i of reg.search.inputs) if (Object.hasOwn(p.values, i.preset_key) && i.kind === 'number') return { preset: p.id, input: i.name, value: p.values[i.preset_key] };
    return null;
  });
  // The Plan card's model inputs carry preset meanings (core/training/search_inputs.cpp): one must exist.
  expect(pick, 'an input of the Plan card that a model preset fills').not.toBeNull();
  await plan.locator('details').evaluateAll((ds) => ds.forEach((d) => (d.open = true)));
  const field = plan.locator(`[name="${pick.input}"]`);
  const before = await field.inputValue();
  await page.locator('.scenario-bar select').first().selectOption(pick.preset);
  await expect(field).not.toHaveValue(before);
  expect(await page.evaluate(([t]) => window.napkin.parse(t, '').value, [await field.inputValue()])).toBe(pick.value);
  await expect(plan.locator('.hint', { hasText: 'Follows the scenario' })).toBeVisible();
  await field.fill('7');
  await page.locator('.scenario-bar select').first().selectOption('');
  await expect(field).toHaveValue('7');
});

test('keyboard: Enter searches, Tab reaches Cancel while it runs, focus comes back to Search', async ({ page }) => {
  await holdSearch(page);
  const plan = await openPlan(page, '/index.html');
  await plan.locator('[name="gpus"]').fill(HUGE);
  await plan.getByRole('button', { name: 'Search' }).focus();
  await page.keyboard.press('Enter');
  await expect(plan.getByRole('button', { name: 'Cancel' })).toBeVisible();
  await expect(plan.getByRole('button', { name: 'Search' })).toBeFocused();
  await page.keyboard.press('Tab');
  await expect(plan.getByRole('button', { name: 'Cancel' })).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(plan.getByRole('status')).toHaveText('Search cancelled.');
  await expect(plan.getByRole('button', { name: 'Search' })).toBeFocused();
});

test('Open puts a row\'s layout into the whole-step card, whose step time matches the row', async ({ page, problems }) => {
  const plan = await openPlan(page, '/index.html');
  await plan.locator('[name="gpus"]').fill('512');
  await plan.getByRole('button', { name: 'Search' }).click();
  const first = plan.locator('.plan-table tbody tr').first();
  await expect(first).toBeVisible({ timeout: 20000 });
  const rowTime = Number(await first.locator('[data-output="step_time"]').getAttribute('data-value'));
  await first.getByRole('button', { name: /^Open layout 1 in / }).click();
  const card = page.locator('form[data-estimator="train.step"]');
  await expect(card).toBeVisible();
  await expect(card.locator('[data-output="step_time"]')).toHaveAttribute('data-value', /\d/);
  const cardTime = Number(await card.locator('[data-output="step_time"]').getAttribute('data-value'));
  expect(cardTime).toBeCloseTo(rowTime, 6);
  expect(problems).toEqual([]);
});

// Issue #30.4: every input of the Plan card that the scenario's model carries follows it —
// switches and choices too (Llama's untied embeddings, SwiGLU) — and Open carries them into
// the derivation.
test('every Plan input the scenario carries follows it, switches included, and Open carries them', async ({ page }) => {
  const plan = await openPlan(page, '/index.html');
  // A model preset that sets a switch of the Plan card away from the card's example.
  const pick = await page.evaluate(() => {
    const reg = window.napkin.list();
    for (const p of reg.presets.filter((x) => x.kind === 'model' && !x.estimators.length))
      for (const i of reg.search.inputs)
        if (i.kind === 'boolean' && Object.hasOwn(p.values, i.preset_key) && p.values[i.preset_key] !== i.example) return p.id;
    return null;
  });
  expect(pick, 'a model preset that flips a switch of the Plan card').not.toBeNull();
  await page.locator('.scenario-bar select').first().selectOption(pick);
  const wrong = await plan.evaluate((form, id) => {
    const reg = window.napkin.list();
    const p = reg.presets.find((x) => x.id === id);
    const out = [];
    for (const i of reg.search.inputs) {
      if (!Object.hasOwn(p.values, i.preset_key)) continue;
      const f = form.querySelector(`[name="${i.name}"]`);
      const want = p.values[i.preset_key];
      const got = i.kind === 'boolean' ? f.checked : i.kind === 'number' ? window.napkin.parse(f.value, i.unit).value : f.value;
      if (i.kind === 'number' ? Math.abs(got - want) > 1e-9 * Math.abs(want) : got !== want) out.push(`${i.label}: ${got} ≠ ${want}`);
    }
    return out;
  }, pick);
  expect(wrong).toEqual([]);
  // Open the best layout: the whole-step card shows the same switches as the Plan card.
  await plan.locator('[name="gpus"]').fill('512');
  await plan.getByRole('button', { name: 'Search' }).click();
  const first = plan.locator('.plan-table tbody tr').first();
  await expect(first).toBeVisible({ timeout: 20000 });
  await first.getByRole('button', { name: /^Open layout 1 in / }).click();
  const card = page.locator('form[data-estimator="train.step"]');
  await expect(card).toBeVisible();
  const differ = await page.evaluate(() => {
    const reg = window.napkin.list();
    const planForm = document.querySelector('form[data-search]');
    const cardForm = document.querySelector(`form[data-estimator="${reg.search.estimator}"]`);
    const out = [];
    for (const i of reg.search.inputs.filter((x) => x.kind === 'boolean')) {
      const a = planForm.querySelector(`[name="${i.name}"]`), b = cardForm.querySelector(`[name="${i.name}"]`);
      if (a && b && a.checked !== b.checked) out.push(i.label);
    }
    return out;
  });
  expect(differ).toEqual([]);
});
