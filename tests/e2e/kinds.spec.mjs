// Question kinds (issue #14): a multiple choice with a why for each option, an order graded as
// a whole, both in the page and embedded (element and iframe, with their score); "predict, then
// reveal" has its own spec (predict.spec.mjs). What a person sees, by role and by keyboard;
// axe-core.
import { test, expect, axe, bank } from './fixtures.mjs';

test.use({ bypassCSP: true });  // axe-core is added as a script tag

test('a choice: options shown, nothing graded before an attempt, a wrong then a right choice', async ({ page, problems }) => {
  await page.goto('/index.html#tab=practice&problem=choice.node_boundary&seed=0');
  await page.waitForFunction(() => window.napkin);
  await bank(page);
  const p = page.locator('article.problem[data-problem="choice.node_boundary"]');
  const group = p.getByRole('group', { name: 'Your answer' });
  await expect(group.getByRole('radio')).toHaveCount(3);
  await expect(group.getByRole('radio', { name: 'TP 16 × PP 4 × DP 8: TP crosses nodes' })).toBeVisible();
  await expect(group.getByRole('radio', { name: 'TP 8 × DP 64, ZeRO-3: FSDP crosses' })).toBeVisible();
  // Before an attempt: no verdict, no option's why, no step time.
  await expect(p.locator('.verdict')).toBeEmpty();
  expect(await p.innerText()).not.toMatch(/all-reduces in every layer|bubble|53\.8/);
  await group.getByRole('radio', { name: /TP 16/ }).check();
  await p.getByRole('button', { name: 'Check' }).click();
  await expect(p.locator('.verdict')).toHaveAttribute('data-verdict', 'wrong');
  await expect(p.locator('.verdict')).toContainText('TP all-reduces in every layer: at 25 GB/s that dominates.');
  await expect(p.locator('.score')).toHaveText('Score: no marks');
  // By keyboard: the arrow keys move the choice within the group.
  await group.getByRole('radio', { name: /TP 16/ }).focus();
  await page.keyboard.press('ArrowDown');
  await expect(group.getByRole('radio', { name: /TP 8 × PP 8/ })).toBeChecked();
  await p.getByRole('button', { name: 'Check' }).click();
  await expect(p.locator('.verdict')).toHaveAttribute('data-verdict', 'correct');
  await expect(p.locator('.score')).toHaveText('Score: full marks');
  await p.getByRole('button', { name: 'Show worked solution' }).click();
  await expect(p.locator('.solution .step').first()).toContainText('TP 8 × PP 8 × DP 8: PP and DP cross: 55.12 s');
  expect(await axe(page, 'article.problem')).toEqual([]);
  expect(problems).toEqual([]);
});

test('an order: items move by keyboard, one swap is half marks, the right order full', async ({ page, problems }) => {
  await page.goto('/index.html#tab=practice&problem=order.clusters&seed=0');
  await page.waitForFunction(() => window.napkin);
  await bank(page);
  const p = page.locator('article.problem[data-problem="order.clusters"]');
  const list = p.getByRole('list', { name: 'Your order' });
  const items = list.locator('li span');
  // 70B on 2T tokens at 40 % MFU: 1,024 H100s (1.01 EFLOP/s) beat 2,048 A100s (0.64) and
  // 128 B200s (0.29), by the datasheets' dense BF16 peaks.
  await expect(items).toHaveText(['2,048 A100s', '128 B200s', '1,024 H100s']);
  await expect(p.locator('.verdict')).toBeEmpty();
  await p.getByRole('button', { name: 'Check' }).click();
  await expect(p.locator('.verdict')).toHaveAttribute('data-verdict', 'wrong');
  await expect(p.locator('.verdict')).toContainText('“1,024 H100s” comes before “2,048 A100s”.');
  // Keyboard only: Enter on "Move 1,024 H100s up"; the focus stays on it as it moves.
  await list.getByRole('button', { name: 'Move 1,024 H100s up' }).focus();
  await page.keyboard.press('Enter');
  await expect(items).toHaveText(['2,048 A100s', '1,024 H100s', '128 B200s']);
  await expect(list.getByRole('button', { name: 'Move 1,024 H100s up' })).toBeFocused();
  await p.getByRole('button', { name: 'Check' }).click();
  await expect(p.locator('.verdict')).toHaveAttribute('data-verdict', 'close');
  await expect(p.locator('.score')).toHaveText('Score: half marks (two neighbours swapped)');
  await list.getByRole('button', { name: 'Move 1,024 H100s up' }).focus();
  await page.keyboard.press('Enter');
  await expect(items).toHaveText(['1,024 H100s', '2,048 A100s', '128 B200s']);
  await p.getByRole('button', { name: 'Check' }).click();
  await expect(p.locator('.verdict')).toHaveAttribute('data-verdict', 'correct');
  await expect(p.locator('.score')).toHaveText('Score: full marks');
  expect(await axe(page, 'article.problem')).toEqual([]);
  expect(problems).toEqual([]);
});

test('embedded, a choice and an order report their scores to the host page', async ({ page, problems }) => {
  await page.goto('/demo/index.html');
  const frame = page.frameLocator('#napkin-frame');
  await expect(frame.locator('.statement')).toContainText('175B');
  await page.evaluate(() => {
    const el = document.createElement('napkin-problem');
    el.setAttribute('problem', 'choice.allreduce');
    el.setAttribute('seed', '0');
    el.id = 'kind-element';
    document.body.append(el);
    // A new query, not only a new hash, so that the frame loads the other problem.
    // The frame sends scores only to an origin it is given.
    document.getElementById('napkin-frame').src = '../embed.html?kind#problem=order.decode_gpus&seed=0&origin=' + encodeURIComponent(location.origin);
  });
  const el = page.locator('#kind-element');
  await el.getByRole('radio', { name: 'Tree' }).check();
  await el.getByRole('button', { name: 'Check' }).click();
  await expect(el.locator('.verdict')).toHaveAttribute('data-verdict', 'correct');
  const log = page.locator('#score-log li');
  await expect(log).toHaveText(['choice.allreduce (variant 0, element): correct, score 1']);
  // The iframe: shown H100, B200, A100, MI300X; by bandwidth B200, MI300X, H100, A100.
  await expect(frame.locator('.order li span')).toHaveText(['H100', 'B200', 'A100', 'MI300X']);
  await frame.getByRole('button', { name: 'Check' }).click();
  await expect(log.nth(1)).toHaveText('order.decode_gpus (variant 0, iframe): wrong, score 0');
  await frame.getByRole('button', { name: 'Move B200 up' }).click();
  await frame.getByRole('button', { name: 'Move MI300X up' }).click();
  await frame.getByRole('button', { name: 'Move MI300X up' }).click();
  await expect(frame.locator('.order li span')).toHaveText(['B200', 'MI300X', 'H100', 'A100']);
  await frame.getByRole('button', { name: 'Check' }).click();
  await expect(log.nth(2)).toHaveText('order.decode_gpus (variant 0, iframe): correct, score 1');
  expect(problems).toEqual([]);
});
