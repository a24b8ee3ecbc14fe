// A page that records console errors and CSP violations, and waits for napkin-ready.
import { createRequire } from 'node:module';
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

// The practice bank loads on first use (SPEC §7); tests that call the problem API load it the
// way the Practice tab does.
export async function bank(page) {
  await page.waitForFunction(() => typeof window.napkinLoadProblems === 'function');
  await page.evaluate(() => window.napkinLoadProblems());
}

export async function openTab(page, area) {
  await page.click(`[data-tab="${area}"]`);
}

// axe-core's violations inside one element, as "rule: targets" lines (empty when clean). The
// spec adds axe-core as a script tag, so it needs `test.use({ bypassCSP: true })`.
const AXE = createRequire(import.meta.url).resolve('axe-core/axe.min.js');
export async function axe(page, selector) {
  await page.addScriptTag({ path: AXE });
  return page.evaluate(async (sel) => {
    const r = await window.axe.run(document.querySelector(sel), { resultTypes: ['violations'] });
    return r.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(' | ')}`);
  }, selector);
}
