// Browser tests in Debian's Chromium (never `playwright install`): the built dist/ served with
// the strict CSP by web/serve.mjs, and dist/napkin.html from file://.
import { defineConfig } from '@playwright/test';

export const CHROMIUM_ARGS = [
  '--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking',
  '--disable-component-update', '--disable-sync', '--no-first-run',
];

// E2E_PORT lets several checkouts run their browser tests at once on one machine.
const PORT = Number(process.env.E2E_PORT) || 4173;

export default defineConfig({
  testDir: '.',
  testMatch: /.*\.spec\.mjs/,
  timeout: 30000,
  workers: 2,
  reporter: [['list']],
  outputDir: '../../test-results',
  use: {
    baseURL: `http://127.0.0.1:${PORT}`,
    launchOptions: { executablePath: '/usr/bin/chromium', args: CHROMIUM_ARGS },
    viewport: { width: 1280, height: 900 },
  },
  webServer: {
    command: `node web/serve.mjs dist ${PORT}`,
    cwd: '../..',
    url: `http://127.0.0.1:${PORT}/index.html`,
    reuseExistingServer: false,
    timeout: 20000,
  },
});
