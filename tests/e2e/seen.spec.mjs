// The page as a person sees it (issue #9): what is on the screen after each click and key,
// at phone width and 400 % zoom, to axe-core, and in the words used. Each test here failed
// on the page before that issue was fixed.
import path from 'node:path';
import { createRequire } from 'node:module';
import { test, expect, ready, bank as loadBank } from './fixtures.mjs';

const require = createRequire(import.meta.url);
const AXE = require.resolve('axe-core/axe.min.js');

// Tabs in order, from the page itself.
async function tabIds(page) {
  return page.$$eval('[role=tab]', (tabs) => tabs.map((t) => t.dataset.tab));
}

async function visiblePanels(page) {
  return page.$$eval('[role=tabpanel]', (ps) => ps.filter((p) => p.checkVisibility()).map((p) => p.id));
}

test('the page starts on the first screen; one panel is visible after every click and key', async ({ page }) => {
  await page.goto('/index.html');
  await ready(page);
  expect(await visiblePanels(page)).toEqual(['panel-start']);
  await expect(page.getByRole('button', { name: /How long will training take/ })).toBeVisible();
  const ids = await tabIds(page);
  expect(ids.length).toBeGreaterThanOrEqual(5);
  // Mouse: every tab, twice round, so panels built earlier must hide again.
  for (const id of [...ids, ...ids]) {
    await page.click(`[data-tab="${id}"]`);
    expect(await visiblePanels(page), id).toEqual([`panel-${id}`]);
    await expect(page.locator(`[data-tab="${id}"]`)).toHaveAttribute('aria-selected', 'true');
    await expect(page.locator(`[data-tab="${id}"]`)).toHaveAttribute('aria-controls', `panel-${id}`);
    // The panel starts at the top of the page, not thousands of pixels down.
    const top = await page.locator(`#panel-${id}`).evaluate((p) => p.getBoundingClientRect().top + scrollY);
    expect(top).toBeLessThan(400);
  }
  // Keyboard: arrows, Home and End move focus and content together.
  await page.click(`[data-tab="${ids[0]}"]`);
  for (let i = 1; i < ids.length; i++) {
    await page.keyboard.press('ArrowRight');
    expect(await visiblePanels(page)).toEqual([`panel-${ids[i]}`]);
    await expect(page.locator(`[data-tab="${ids[i]}"]`)).toBeFocused();
  }
  await page.keyboard.press('Home');
  expect(await visiblePanels(page)).toEqual([`panel-${ids[0]}`]);
  await page.keyboard.press('End');
  expect(await visiblePanels(page)).toEqual([`panel-${ids[ids.length - 1]}`]);
  await page.keyboard.press('ArrowLeft');
  expect(await visiblePanels(page)).toEqual([`panel-${ids[ids.length - 2]}`]);
  // Tab from the tab list lands in the panel that is shown.
  await page.keyboard.press('Tab');
  const inPanel = await page.evaluate(() => document.activeElement.closest('[role=tabpanel]')?.id);
  expect(inPanel).toBe(`panel-${ids[ids.length - 2]}`);
});

for (const [label, viewport] of [['a 390 px phone', { width: 390, height: 844 }], ['400 % zoom (320 CSS px)', { width: 320, height: 256 }]]) {
  test(`no sideways scrolling on any tab at ${label}`, async ({ page }) => {
    await page.setViewportSize(viewport);
    await page.goto('/index.html');
    await ready(page);
    for (const id of await tabIds(page)) {
      await page.click(`[data-tab="${id}"]`);
      await page.waitForTimeout(100);
      const { scroll, client } = await page.evaluate(() => ({ scroll: document.documentElement.scrollWidth, client: document.documentElement.clientWidth }));
      expect(scroll, `${id} at ${viewport.width} px`).toBeLessThanOrEqual(client);
    }
    // The header does not take the screen: at 400 % zoom it scrolls away with the page.
    const header = await page.locator('.top').evaluate((el) => getComputedStyle(el).position);
    if (viewport.height < 600) expect(header).toBe('static');
  });

  // Issue #30.2: with every derivation (and every other disclosure) open the page still
  // reflows (WCAG 1.4.10), and each step's title wraps onto more lines instead of being cut.
  test(`every derivation open: no sideways scrolling and whole step titles at ${label}`, async ({ page }) => {
    test.setTimeout(120000);
    await page.setViewportSize(viewport);
    await page.goto('/index.html');
    await ready(page);
    const ids = (await tabIds(page)).filter((id) => id !== 'start' && id !== 'practice');
    for (const id of ids) {
      await page.click(`[data-tab="${id}"]`);
      await expect(page.locator(`#panel-${id} form.card`).first()).toBeVisible();
      await page.waitForTimeout(300);
      await page.$$eval(`#panel-${id} details`, (ds) => ds.forEach((d) => (d.open = true)));
      await page.waitForTimeout(300);
      expect(await page.locator(`#panel-${id} .step-title`).count(), id).toBeGreaterThan(0);
      const { scroll, client } = await page.evaluate(() => ({ scroll: document.documentElement.scrollWidth, client: document.documentElement.clientWidth }));
      expect(scroll, `${id} at ${viewport.width} px, derivations open`).toBeLessThanOrEqual(client);
      // A title is cut when its text is wider than its box, its box runs past the viewport,
      // or it is drawn with an ellipsis.
      const cut = await page.$$eval(`#panel-${id} .step-title`, (ts) => ts.filter((t) => {
        const r = t.getBoundingClientRect();
        return t.scrollWidth > t.clientWidth + 1 || r.right > document.documentElement.clientWidth + 0.5 || r.left < -0.5
          || getComputedStyle(t).textOverflow === 'ellipsis';
      }).map((t) => t.textContent.slice(0, 60)));
      expect(cut, `${id}: step titles cut at ${viewport.width} px`).toEqual([]);
    }
  });
}

test.describe('axe-core', () => {
  test.use({ bypassCSP: true });
  test('0 critical and 0 serious violations on every tab, derivations open', async ({ page }) => {
    test.setTimeout(120000);
    await page.goto('/index.html');
    await ready(page);
    for (const id of await tabIds(page)) {
      await page.click(`[data-tab="${id}"]`);
      await page.$$eval(`#panel-${id} details`, (ds) => ds.forEach((d) => (d.open = true)));
      await page.waitForTimeout(150);
      if (!(await page.evaluate(() => !!window.axe))) await page.addScriptTag({ path: AXE });
      const violations = await page.evaluate(async () => {
        const r = await window.axe.run(document, { resultTypes: ['violations'] });
        return r.violations
          .filter((v) => v.impact === 'critical' || v.impact === 'serious')
          .map((v) => `${v.id} (${v.impact}): ${v.nodes.length} × ${v.nodes.slice(0, 3).map((n) => n.target.join(' ')).join(' | ')}`);
      });
      expect(violations, id).toEqual([]);
    }
  });
});

test.describe('axe-core in dark mode', () => {
  test.use({ bypassCSP: true, colorScheme: 'dark' });
  test('0 critical and 0 serious violations on every tab', async ({ page }) => {
    test.setTimeout(120000);
    await page.goto('/index.html');
    await ready(page);
    for (const id of await tabIds(page)) {
      await page.click(`[data-tab="${id}"]`);
      await page.waitForTimeout(150);
      if (!(await page.evaluate(() => !!window.axe))) await page.addScriptTag({ path: AXE });
      const violations = await page.evaluate(async () => {
        const r = await window.axe.run(document, { resultTypes: ['violations'] });
        return r.violations
          .filter((v) => v.impact === 'critical' || v.impact === 'serious')
          .map((v) => `${v.id} (${v.impact}): ${v.nodes.length} × ${v.nodes.slice(0, 3).map((n) => n.target.join(' ')).join(' | ')}`);
      });
      expect(violations, id).toEqual([]);
    }
  });
});

// Visible text outside code-styled ids: no "seed 001", no notes' jargon, no raw snake_case.
async function visibleWords(page) {
  return page.evaluate(() => {
    const skip = 'code, kbd, math, .math, script, style, select, textarea, [hidden]';
    const out = [];
    const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
    for (let n = walker.nextNode(); n; n = walker.nextNode()) {
      const el = n.parentElement;
      if (!el || el.closest(skip) || !el.checkVisibility() || !n.textContent.trim()) continue;
      out.push(n.textContent.trim());
    }
    // Tooltips are read too.
    for (const el of document.querySelectorAll('[title]')) if (el.checkVisibility() && !el.closest(skip)) out.push(el.title);
    return out;
  });
}

async function jargon(page, ids) {
  const bad = [];
  for (const id of ids) {
    await page.click(`[data-tab="${id}"]`);
    await page.$$eval(`#panel-${id} details.derivation`, (ds) => ds.forEach((d) => (d.open = true)));
    await page.waitForTimeout(100);
    for (const t of await visibleWords(page)) {
      if (/\bseeds?\b|\bnotebook\b/i.test(t)) bad.push(`${id}: ${t}`);
      const snake = t.match(/\b[a-z][a-z0-9]*_[a-z0-9_]+\b/);
      if (snake) bad.push(`${id}: ${snake[0]} in “${t.slice(0, 80)}”`);
    }
  }
  return [...new Set(bad)];
}

test('no visible "seed NNN", notes\' jargon or raw snake_case id outside code', async ({ page }) => {
  test.setTimeout(90000);
  await page.goto('/index.html');
  await ready(page);
  const ids = (await tabIds(page)).filter((id) => id !== 'practice');
  expect(await jargon(page, ids)).toEqual([]);
});

// The problem bank's titles, statements and feedback say "worked example", never the notes'
// internal names.
test('the Practice tab has no "seed NNN" or notebook words either', async ({ page }) => {
  await page.goto('/index.html#tab=practice');
  await ready(page);
  expect(await jargon(page, ['practice'])).toEqual([]);
});

test('an output that was not asked for is shown as "—", never as 0', async ({ page }) => {
  await page.goto('/index.html');
  await ready(page);
  const reg = await page.evaluate(() => window.napkin.list());
  let checked = 0;
  for (const est of reg.estimators) {
    const optional = est.outputs.filter((o) => o.optional && !o.hidden);
    if (!optional.length) continue;
    await page.click(`[data-tab="${est.area}"]`);
    const form = page.locator(`form[data-estimator="${est.id}"]`);
    const r = await page.evaluate((id) => {
      const e = window.napkin.list().estimators.find((x) => x.id === id);
      return window.napkin.run(id, Object.fromEntries(e.inputs.map((i) => [i.name, i.example])));
    }, est.id);
    for (const o of optional) {
      if (o.name in r.outputs) continue;
      checked++;
      await expect(form.locator(`[data-output="${o.name}"]`), `${est.id}.${o.name}`).toHaveText('—');
    }
  }
  expect(checked).toBeGreaterThanOrEqual(4);
  // Asked for, it appears: a price gives a cost.
  await page.click('[data-tab="training"]');
  const form = page.locator('form[data-estimator="train.time"]');
  await form.locator('[name="price_per_gpu_hour"]').fill('2');
  await expect(form.locator('[data-output="cost"]')).toHaveText(/\$\s?[1-9]/);
});

test('the serving card leaves the worked example\'s mistaken figures off the card', async ({ page }) => {
  await page.goto('/index.html#tab=inference');
  await ready(page);
  const form = page.locator('form[data-estimator="serve.llm_gpus"]');
  await expect(form.locator('[data-output="gpus_needed"]')).toHaveText(/\d/);
  for (const name of ['weight_memory_seed', 'max_concurrent_seed', 'gpus_needed_seed', 'single_request_latency_seed'])
    await expect(form.locator(`[data-output="${name}"]`)).toHaveCount(0);
  const r = await page.evaluate(() => window.napkin.run('serve.llm_gpus', { params: 70e9, users: 1000, rps_per_user: 0.01 }));
  expect(r.outputs.weight_memory_seed).toBeGreaterThan(0);
});

test('a model preset only sets inputs whose meaning it knows', async ({ page }) => {
  await page.goto('/index.html#tab=comm');
  await ready(page);
  const form = page.locator('form[data-estimator="comm.tp_step"]');
  const tokens = await form.locator('[name="tokens"]').inputValue();
  await form.locator('select[data-preset-kind="model"]').selectOption('gpt3');
  await expect(form.locator('[name="hidden"]')).toHaveValue('12,288');
  await expect(form.locator('[name="tokens"]')).toHaveValue(tokens);
  await expect(form).not.toHaveClass(/stale/);
});

test('every wrong input shows its error at once, naming it by label, and stale numbers go', async ({ page }) => {
  await page.goto('/index.html#tab=training');
  await ready(page);
  const form = page.locator('form[data-estimator="train.time"]');
  await form.locator('[name="gpus"]').fill('-3');
  await form.locator('[name="price_per_gpu_hour"]').fill('abc');
  await expect(form.locator('#in-train-time-gpus-err')).toContainText('GPUs');
  await expect(form.locator('#in-train-time-price_per_gpu_hour-err')).toContainText('Price per GPU-hour');
  await expect(form.locator('#in-train-time-price_per_gpu_hour-err code')).toHaveText('price_per_gpu_hour');
  await expect(form.locator('[data-output="days"]')).toHaveText('—');
});

test('a permalink follows hashchange, restores presets and open derivations, and ignores __proto__', async ({ page }) => {
  await page.goto('/index.html#tab=training&p.train.time=llama2-70b&d=train.time&v.train.time.gpus=2048&v.__proto__.x=1&v.train.time.__proto__=2');
  await ready(page);
  expect(await page.evaluate(() => ({}).x)).toBeUndefined();
  const form = page.locator('form[data-estimator="train.time"]');
  await expect(form.locator('[name="gpus"]')).toHaveValue('2048');
  await expect(form.locator('select[data-preset-kind="model"]')).toHaveValue('llama2-70b');
  await expect(form.locator('details.derivation')).toHaveAttribute('open', '');
  await page.evaluate(() => (location.hash = '#tab=memory&v.train.time.gpus=256'));
  await expect(page.locator('#panel-memory')).toBeVisible();
  await expect(page.locator('#panel-training')).toBeHidden();
  await expect(form.locator('[name="gpus"]')).toHaveValue('256');
  await page.goBack();
  await expect(form.locator('[name="gpus"]')).toHaveValue('2048');
});

test('first-screen questions and the / finder open the right card', async ({ page }) => {
  await page.goto('/index.html');
  await ready(page);
  await page.getByRole('button', { name: /How long will training take/ }).click();
  const form = page.locator('form[data-estimator="train.time"]');
  await expect(form).toBeInViewport();
  await expect(form.locator('select[data-preset-kind="model"]')).toHaveValue('llama2-70b');
  await expect(form.locator('select[data-preset-kind="gpu"]')).toHaveValue('a100');
  await expect(form.locator('[data-output="days"]')).toHaveText(/\d/);
  await page.locator('body').click({ position: { x: 5, y: 5 } });
  await page.keyboard.press('/');
  await expect(page.locator('#find')).toBeFocused();
  await page.keyboard.type('kv cache');
  await page.keyboard.press('Enter');
  await expect(page.locator('#panel-inference')).toBeVisible();
  await expect(page.locator('form[data-estimator="infer.kv"]')).toBeInViewport();
});

// Issue #30.10: the words people type ("plan", "nccl", "vram") find something, and Enter on
// "plan" brings the Plan card into view.
test('the / finder knows plan, allreduce, nccl, vram and quantization', async ({ page }) => {
  await page.goto('/index.html');
  await ready(page);
  for (const q of ['plan', 'allreduce', 'nccl', 'vram', 'quantization']) {
    await page.locator('#find').fill(q);
    await expect(page.locator('#find-list [role=option]').first(), q).toBeVisible();
    await expect(page.locator('#find-list .find-none')).toHaveCount(0);
  }
  await page.locator('#find').fill('plan');
  await page.locator('#find').press('Enter');
  await expect(page.locator('form[data-search]')).toBeInViewport();
});

test('pin a result to compare, export a card and a chart, read the docs inside the page', async ({ page }) => {
  await page.goto('/index.html#tab=training');
  await ready(page);
  const form = page.locator('form[data-estimator="train.time"]');
  await form.getByRole('button', { name: 'Pin these results' }).click();
  await form.locator('[name="gpus"]').fill('1024');
  await expect(form.locator('[data-output-box="days"] .pin')).toContainText('Pinned: ');
  await expect(form.locator('[data-output-box="days"] .pin')).toContainText('−50.0 %');
  const [csv] = await Promise.all([page.waitForEvent('download'), form.getByRole('button', { name: 'Export CSV' }).click()]);
  expect(csv.suggestedFilename()).toBe('train.time.csv');
  const [png] = await Promise.all([page.waitForEvent('download'), form.locator('[data-chart="train-days-gpus"]').getByRole('button', { name: 'Download PNG' }).click()]);
  expect(png.suggestedFilename()).toBe('train-days-gpus.png');
  await form.locator('details.docs > summary').click();
  await expect(form.locator('.doc-body')).toContainText('Kaplan');
  await expect(form.locator('.doc-body')).toContainText('Assumptions');
  await form.locator('[data-chart="train-days-gpus"] details.chart-data > summary').click();
  await expect(form.locator('[data-chart="train-days-gpus"] table.mini')).toBeVisible();
  await expect(form.locator('[data-chart="train-days-gpus"] table.mini')).toContainText('Your inputs');
});

// Issue #9.2. The statement gives the data, and a given number can equal the answer by chance
// (80 ms per batch → 80 GPUs): a statement number counts as a leak only if it matches the
// answer in the original and in two random variants too. Everything else on the problem's
// face (area line, title, source line, labels) must match no answer at all. Buttons are
// controls ("Hint (1 of 2)"), not problem text.
test('a practice problem shows no number near its answer before an attempt', async ({ page }) => {
  test.setTimeout(120000);
  await page.goto('/index.html#tab=practice');
  await ready(page);
  await loadBank(page);
  const bank = await page.evaluate(() => window.napkin.problems().problems.map((p) => p.id));
  expect(bank.length).toBeGreaterThan(40);
  const numbersIn = (text) => (String(text).replace(/(\d),(\d{3})/g, '$1$2').match(/\d*\.?\d+(e[-+]?\d+)?/gi) || []).map(Number);
  const near = (text, answer) => {
    const shown = Number(String(answer.text).replace(/,/g, '').match(/[-+]?\d*\.?\d+(e[-+]?\d+)?/i)?.[0]);
    const targets = [answer.value, shown].filter((a) => Number.isFinite(a) && a !== 0);
    return numbersIn(text).filter((n) => targets.some((a) => Math.abs(n - a) <= 0.01 * Math.abs(a)));
  };
  const leaks = [];
  for (const id of bank) {
    await page.locator(`.problem-list li[data-problem="${id}"] button`).click();
    const problem = page.locator(`article.problem[data-problem="${id}"]`);
    await expect(problem).toBeVisible();
    const face = await problem.evaluate((el) => {
      const parts = [];
      for (const n of el.querySelectorAll('header *, label, .verdict, .hints, .solution'))
        if (n.checkVisibility() && n.children.length === 0) parts.push(n.textContent);
      return parts.join(' \n ');
    });
    const p0 = await page.evaluate((pid) => window.napkin.problem(pid, 0), id);
    if (p0.kind) {
      // A choice or an order shows its options by design (numbers in their labels included);
      // what must not show is the key: nothing graded yet, and an order never listed sorted.
      await expect(problem.locator('.verdict')).toBeEmpty();
      if (p0.kind === 'order')
        expect(await problem.locator('.order li span').allTextContents()).not.toEqual(p0.answer.order.map((i) => p0.options[i]));
      continue;
    }
    for (const n of near(face, p0.answer)) leaks.push(`${id}: “${n}” on the problem's face ≈ answer ${p0.answer.text}`);
    await expect(problem.locator('.statement')).toHaveText(p0.statement);
    const variants = await page.evaluate((pid) => [1, 2].map((s) => window.napkin.problem(pid, s)), id);
    const persistent = near(p0.statement, p0.answer).length && variants.every((v) => near(v.statement, v.answer).length);
    if (persistent) leaks.push(`${id}: the statement shows its answer ${p0.answer.text}`);
  }
  expect([...new Set(leaks)]).toEqual([]);
});

// The rendered docs used to be left out of the single file for its byte budget; now they are
// an inert blob inflated when a card's docs first open, as the practice bank is.
test('the single file carries each card\'s rendered docs, loaded when they first open', async ({ page }) => {
  await page.goto('file://' + path.resolve(path.dirname(new URL(import.meta.url).pathname), '../../dist/napkin.html') + '#tab=training');
  await ready(page);
  const form = page.locator('form[data-estimator="train.time"]');
  await form.locator('details.docs > summary').click();
  await expect(form.locator('.doc-body')).toContainText('Kaplan');
  await expect(form.locator('.doc-body')).toContainText('Assumptions');
  await expect(form.locator('.doc-body')).not.toContainText('The full notes');  // not the fallback
});

test('focus moving up the page is never hidden under the sticky header (WCAG 2.4.11)', async ({ page }) => {
  await page.goto('/index.html#tab=training');
  await ready(page);
  const form = page.locator('form[data-estimator="train.time"]');
  const field = form.locator('[name="params"]');
  // The field sits under the header (in the viewport, so the browser would not scroll to it);
  // Shift+Tab from the next field moves focus onto it.
  await field.evaluate((el) => scrollTo(0, el.getBoundingClientRect().top + scrollY - 20));
  await form.locator('[name="tokens"]').evaluate((el) => el.focus({ preventScroll: true }));
  await page.keyboard.press('Shift+Tab');
  await expect(field).toBeFocused();
  const headerBottom = await page.locator('.top').evaluate((el) => el.getBoundingClientRect().bottom);
  const top = await field.evaluate((el) => el.getBoundingClientRect().top);
  expect(top).toBeGreaterThanOrEqual(headerBottom);
});
