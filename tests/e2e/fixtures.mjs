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

// Ready: the API is up and one tab panel is on screen (the first screen has no results).
export async function ready(page) {
  await page.waitForFunction(() => window.napkin && document.querySelector('[role=tabpanel]:not([hidden])'));
}

export async function openTab(page, area) {
  await page.click(`[data-tab="${area}"]`);
}
