import { defineConfig } from '@playwright/test';
import os from 'node:os';
import path from 'node:path';
import fs from 'node:fs';

// One studio + embedded engine for the browser tests, on ports of their own and a fresh data folder.
// Made once per run: every worker process reads this file again and inherits the runner's environment.
// e2e/global-teardown.ts removes it.
const dataDir = process.env.ATELIER_E2E_TEMP_DATA_DIR ??= fs.mkdtempSync(path.join(os.tmpdir(), 'atelier-e2e-'));
// Ports of their own; overridable so that two checkouts can run their browser tests side by side.
const studioPort = Number(process.env.ATELIER_E2E_STUDIO_PORT ?? 4199);
const enginePort = process.env.ATELIER_E2E_ENGINE_PORT ?? '8799';

export default defineConfig({
  testDir: 'e2e',
  globalTeardown: './e2e/global-teardown.ts',
  timeout: 120_000,
  expect: { timeout: 60_000 },
  workers: 1,
  reporter: [['list']],
  outputDir: 'test-results',
  use: {
    baseURL: `http://127.0.0.1:${studioPort}`,
    viewport: { width: 1400, height: 900 },
    launchOptions: {
      // Debian's Chromium, never a browser downloaded by Playwright.
      executablePath: '/usr/bin/chromium',
      args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update',
        '--disable-sync', '--no-first-run', '--disable-quic'],
    },
  },
  webServer: {
    command: 'npx vite build && npx tsx scripts/dev/start.ts',
    url: `http://127.0.0.1:${studioPort}/healthz`,
    timeout: 180_000,
    reuseExistingServer: false,
    stdout: 'pipe',
    env: {
      ATELIER_DATA_DIR: dataDir,
      ATELIER_ENGINE_PORT: enginePort,
      ATELIER_STUDIO_PORT: String(studioPort),
      ATELIER_WORKERS: '1',
    },
  },
});
