import react from '@vitejs/plugin-react';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    projects: [
      {
        test: {
          name: 'engine',
          include: ['contract/**/*.test.ts', 'engine/**/*.test.ts', 'scripts/**/*.test.ts'],
          environment: 'node',
          pool: 'forks',
          testTimeout: 120_000,
          hookTimeout: 180_000,
          // Engines that tests start (here and as child processes) open no network at start unless a test
          // asks: a preloaded ISNet would cost every one of them seconds of CPU.
          env: { ATELIER_PRELOAD_MODELS: '' },
        },
      },
      {
        // The studio's component tests (owned by the studio; adjust plugins/setup here as needed).
        plugins: [react()],
        test: {
          name: 'studio',
          // proxy.config.test.ts and proxy-security.test.ts run in Node (their own @vitest-environment line); the rest in jsdom.
          include: ['src/**/*.test.{ts,tsx}', 'proxy.config.test.ts', 'proxy-security.test.ts'],
          environment: 'jsdom',
          setupFiles: ['src/testing/setup.ts'],
        },
      },
    ],
  },
});
