/**
 * Removes the run's data folder (ATELIER_E2E_TEMP_DATA_DIR, made by playwright.config.ts). Playwright
 * runs this before it stops the web server, whose engine still has the folder open: it goes when the
 * runner exits, after the server has stopped.
 */
import fs from 'node:fs';

export default function globalTeardown() {
  const dir = process.env.ATELIER_E2E_TEMP_DATA_DIR;
  if (dir) process.once('exit', () => fs.rmSync(dir, { recursive: true, force: true }));
}
