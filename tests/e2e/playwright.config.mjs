// Browser tests in Debian's Chromium (never `playwright install`): the built dist/ served with
// the strict CSP by web/serve.mjs, and dist/napkin.html from file://.
import { defineConfig } from '@playwright/test';

export const CHROMIUM_ARGS = [
  '--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking',
  '--disable-component-update', '--disable-sync', '--no-first-run',
];

export default defineConfig({
  testDir: '.',
  testMatch: /.*\.spec\.mjs/,
  timeout: 30000,
  workers: 2,
  reporter: [['list']],
  outputDir: '../../test-results',
  use: {
    baseURL: 'http://127.0.0.1:4173',
    launchOptions: { executablePath: '/usr/bin/chromium', args: CHROMIUM_ARGS },
    viewport: { width: 1280, height: 900 },
  },
  webServer: {
    command: 'node web/serve.mjs dist 4173',
    cwd: '../..',
    url: 'http://127.0.0.1:4173/index.html',
    reuseExistingServer: false,
    timeout: 20000,
  },
});
