// "Predict, then reveal" on a calculator card (issue #14): the student commits an estimate for
// one output; the card's results stay hidden until then, and then say how far off it was.
// What a person sees: which results are visible, the focus, the sentence, no sideways scroll on
// a phone, and axe-core on the card.
import { test, expect, ready, openTab, axe } from './fixtures.mjs';

test.use({ bypassCSP: true });  // axe-core is added as a script tag

for (const width of [1280, 390]) {
  test(`predict, then reveal at ${width} px: the results hide until the estimate is committed`, async ({ page, problems }) => {
    await page.setViewportSize({ width, height: 900 });
    await page.goto('/index.html');
    await ready(page);
    await openTab(page, 'training');
    const card = page.locator('form.card[data-estimator="train.time"]');
    const days = card.locator('[data-output="days"]');
    await expect(days).toBeVisible();
    const before = await days.textContent();
    await card.getByRole('button', { name: 'Predict first' }).click();
    await expect(days).toBeHidden();
    await expect(card.locator('.derivation')).toBeHidden();
    await expect(card.getByLabel('Your estimate')).toBeFocused();
    // The answer is nowhere in the card's visible text while the student predicts.
    expect(await card.innerText()).not.toContain(before);
    await card.getByLabel('Output to predict').selectOption('days');
    await card.getByLabel('Your estimate').fill('not a number');
    await card.getByRole('button', { name: 'Reveal' }).click();
    await expect(days).toBeHidden();  // an unreadable estimate commits nothing…
    await expect(card.locator('.predict [role="status"]')).not.toBeEmpty();  // …and says why
    await card.getByLabel('Your estimate').fill('1');
    await card.getByLabel('Your estimate').press('Enter');
    await expect(days).toBeVisible();
    const shown = await days.textContent();
    expect(shown).toBe(before);
    await expect(card.locator('.predicted')).toHaveText(
      new RegExp(`^You said 1; .* is ${shown.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}: [\\d.]+× too low\\.$`));
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);
    expect(await axe(page, 'form.card[data-estimator="train.time"]')).toEqual([]);
    expect(problems).toEqual([]);
  });
}
