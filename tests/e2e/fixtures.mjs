// A page that records console errors and CSP violations, and waits for napkin-ready.
import { test as base, expect } from '@playwright/test';

export const test = base.extend({
  problems: async ({ page }, use) => {
    const problems = [];
    page.on('console', (m) => { if (m.type() === 'error') problems.push(m.text()); });
    page.on('pageerror', (e) => problems.push(e.message));
    await use(problems);
  },
});
export { expect };

export async function ready(page) {
  await page.waitForFunction(() => window.napkin && document.querySelector('[data-output] [data-value], [data-output][data-value]'));
}

export async function openTab(page, area) {
  await page.click(`[data-tab="${area}"]`);
}
