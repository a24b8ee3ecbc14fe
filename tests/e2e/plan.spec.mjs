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

// Issue #30.9: what the results table says and how it behaves.
async function searched(page, width = 1280) {
  await page.setViewportSize({ width, height: 900 });
  const plan = await openPlan(page, '/index.html');
  await plan.locator('[name="gpus"]').fill('512');
  await plan.getByRole('button', { name: 'Search' }).click();
  await expect(plan.locator('.plan-table tbody tr').first()).toBeVisible({ timeout: 20000 });
  return plan;
}

test('the Layout column names the microbatch, and layouts that differ only in rank order share one row', async ({ page }) => {
  const plan = await searched(page);
  const { micro, order, top } = await page.evaluate(async () => {
    const reg = window.napkin.list();
    const r = await window.napkin.search({ gpus: 512 });
    const label = (n) => reg.search.layout.find((i) => i.name === n).label;
    return { micro: label('microbatch'), order: label('placement'), top: r.top.length };
  });
  const cells = await plan.locator('.plan-table tbody td.plan-layout').allInnerTexts();
  for (const c of cells) expect(c).toContain(micro.replace(/ \(.*\)$/, ''));
  // Two rows that show the same layout apart from the rank order differ in their results (the
  // order decides which groups talk over NVLink); with the same results they would share a row.
  const heads = cells.map((c) => c.split('\n')[0].split(' · ').filter((p) => !p.startsWith(order)).join(' · '));
  const steps = await plan.locator('.plan-table tbody td[data-output="step_time"]').evaluateAll((tds) => tds.map((td) => Number(td.dataset.value)));
  expect(steps.length).toBe(heads.length);
  for (let i = 0; i < heads.length; i++)
    for (let j = i + 1; j < heads.length; j++)
      if (heads[i] === heads[j]) expect(steps[i], `rows ${i + 1} and ${j + 1}: ${heads[i]}`).not.toBe(steps[j]);
  // Every layout of the search's list is counted: a row, or one of a row's other orderings.
  const more = cells.map((c) => Number((c.match(/and (\d+) more/) || [0, 0])[1]));
  expect(cells.length + more.reduce((a, b) => a + b, 0)).toBe(top);
  expect(more.some((n) => n > 0)).toBe(true);
});

test('Open adds a history entry: Back returns to the Plan results', async ({ page }) => {
  await page.goto('/index.html#tab=start');
  const plan = await searched(page);
  await plan.locator('.plan-table tbody tr').first().getByRole('button', { name: /^Open layout 1 in / }).click();
  const card = page.locator('form[data-estimator="train.step"]');
  await expect(card.locator('details.derivation')).toHaveAttribute('open', '');
  await page.goBack();
  await expect(page).toHaveURL(/index\.html/);
  await expect(plan.locator('.plan-table')).toBeInViewport();
  await expect(plan.locator('.plan-table tbody tr')).not.toHaveCount(0);
});

test('the largest overhead never reads as the layout\'s own setting of the same name', async ({ page }) => {
  // Llama 3 8B on 512 GPUs: attention's recomputation is the largest overhead of the best rows.
  const plan = await openPlan(page, '/index.html');
  await page.locator('.scenario-bar select').first().selectOption('llama3-8b');
  await plan.locator('[name="gpus"]').fill('512');
  await plan.getByRole('button', { name: 'Search' }).click();
  await expect(plan.locator('.plan-table tbody tr').first()).toBeVisible({ timeout: 20000 });
  let seen = 0;
  const labels = await page.evaluate(() => window.napkin.list().search.layout.map((i) => i.label));
  for (const why of await plan.locator('.plan-table tbody td.plan-why').allInnerTexts()) {
    const m = why.match(/largest overhead: (.*?) [\d.]+\s*%/);
    if (m) expect(labels, why).not.toContain(m[1]);
    if (m) seen++;
  }
  expect(seen).toBeGreaterThan(0);
});

test('at 390 px the results are cards: the Layout reads across the width, not a word per line', async ({ page }) => {
  const plan = await searched(page, 390);
  const rows = plan.locator('.plan-table tbody tr');
  const { cell, row } = await rows.first().evaluate((tr) => ({
    cell: tr.querySelector('td.plan-layout').getBoundingClientRect().width, row: tr.getBoundingClientRect().width,
  }));
  expect(cell).toBeGreaterThan(250);
  expect(row).toBeLessThanOrEqual(390);
  // Each number keeps its name beside it once the header row is gone.
  expect(await rows.first().locator('[data-output="step_time"]').innerText()).toMatch(/Step time/);
  const { scroll, client } = await page.evaluate(() => ({ scroll: document.documentElement.scrollWidth, client: document.documentElement.clientWidth }));
  expect(scroll).toBeLessThanOrEqual(client);
});
