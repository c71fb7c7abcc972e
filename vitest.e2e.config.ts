import { defineConfig } from 'vitest/config';

// End-to-end suites: a real daemon on the simulator and Debian's Chromium (playwright-core, no
// browser download). Two files at a time: each drives a browser and a simulator child, and they
// mostly wait on the simulator's pacing, so two share the 2 cores well (6 min → under 3 on them,
// and green under the loaded check: docs/TESTING.md). Three were slower on a busy machine.
export default defineConfig({
  test: {
    include: ['test/e2e/**/*.test.ts'],
    // The web build, and the simulator and CLI bundled once per run (test/helpers/bundle.global.ts):
    // every file's daemon starts a simulator child, which through tsx costs about three times the CPU.
    globalSetup: ['test/e2e/support/build-web.ts', 'test/helpers/bundle.global.ts'],
    // Closes the file's shared Chromium after its tests (test/e2e/support/browser.ts).
    setupFiles: ['test/e2e/support/teardown.ts'],
    pool: 'forks',
    maxWorkers: 2,
    // A worker keeps its module cache from one file to the next: the daemon's sources load once
    // per worker, not once per file (each file still starts its own daemon and Chromium, and
    // closes them after its tests).
    isolate: false,
    testTimeout: 120_000,
    hookTimeout: 120_000,
    teardownTimeout: 30_000,
    // An `expect.poll` waits for a condition like a locator does, so it gets a locator's bound
    // (browser.ts): vitest's 1 s default failed polls on a busy machine that were only slow.
    expect: { poll: { timeout: 20_000 } },
    reporters: ['default'],
  },
});
