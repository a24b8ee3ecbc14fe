// The RL step card (rl.step, issue #29) as a user sees it: the phases, the placements, the
// async comparison appearing only when asked, the per-phase bars, and a phone-width page.
import { test, expect, ready, axe } from './fixtures.mjs';

test.use({ bypassCSP: true });

test('rl.step: colocated by default, async on request, phases as stacked bars', async ({ page, problems }) => {
  await page.goto('/index.html#tab=inference&d=rl.step');
  await ready(page);
  const form = page.locator('form[data-estimator="rl.step"]');
  await expect(form.locator('[data-output="step_time"]')).toHaveText(/^\d+(\.\d+)? s$/);
  await expect(form.locator('[data-output="generation_gpus"]')).toHaveText('16 GPU');
  // A synchronous question: no async comparison, shown as absent rather than 0.
  await expect(form.locator('[data-output="speedup_vs_sync"]')).toHaveText('—');
  await expect(form.locator('[data-output="offload_time"]')).not.toHaveText('—');
  await form.locator('select[name="placement"]').selectOption('async');
  await expect(form.locator('[data-output="speedup_vs_sync"]')).toHaveText(/^\d+(\.\d+)?×$/);
  await expect(form.locator('[data-output="generation_gpus"]')).toHaveText('8 GPU');
  await expect(form.locator('[data-output="offload_time"]')).toHaveText('—');
  // The phases by GPUs generating, and step time by placement, drawn with data.
  const bars = form.locator('figure[data-chart="rl-step-phases"]');
  await expect(bars.locator('canvas')).toBeVisible();
  await bars.locator('summary').click();
  await expect(bars.locator('table.mini')).toContainText('Generation');
  await expect(form.locator('figure[data-chart="rl-step-vs-generation-gpus"] canvas')).toBeVisible();
  // One stacked bar of phases per placement, its categories named in the data table.
  const byPlacement = form.locator('figure[data-chart="rl-step-by-placement"]');
  await expect(byPlacement.locator('canvas')).toBeVisible();
  await byPlacement.locator('summary').click();
  const rows = byPlacement.locator('table.mini tbody tr');
  await expect(rows).toHaveCount(3);
  await expect(rows.nth(0).locator('td').first()).toHaveText('Colocated');
  await expect(rows.nth(2).locator('td').first()).toHaveText('Async');
  await expect(rows.nth(2).locator('td').nth(1)).toHaveText(/\d/);
  // A verifier costs what the user says.
  await form.locator('input[name="verifier_time"]').fill('7 s');
  await expect(form.locator('[data-output="reward_time"]')).toHaveText('7 s');
  // A bad value names the input.
  await form.locator('input[name="response_len_max"]').fill('10');
  await expect(form.locator('.field-error, .error').filter({ hasText: 'response_len_max' }).first()).toBeVisible();
  expect(problems).toEqual([]);
  expect((await axe(page, 'form[data-estimator="rl.step"]')).filter((v) => !v.startsWith('color-contrast'))).toEqual([]);
});

test('rl.step at 390 px: nothing scrolls sideways', async ({ page }) => {
  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto('/index.html#tab=inference&d=rl.step');
  await ready(page);
  const form = page.locator('form[data-estimator="rl.step"]');
  await form.scrollIntoViewIfNeeded();
  await expect(form.locator('[data-output="step_time"]')).toHaveText(/\d/);
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
});
