import { defineConfig } from 'vitest/config';

// End-to-end suites: a real daemon on the simulator and Debian's Chromium (playwright-core, no
// browser download). One file at a time: each drives a browser and a simulator child.
export default defineConfig({
  test: {
    include: ['test/e2e/**/*.test.ts'],
    globalSetup: ['test/e2e/support/build-web.ts'],
    pool: 'forks',
    maxWorkers: 1,
    fileParallelism: false,
    testTimeout: 120_000,
    hookTimeout: 120_000,
    teardownTimeout: 30_000,
    reporters: ['default'],
  },
});
