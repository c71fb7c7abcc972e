import { afterAll } from 'vitest';
import { closeBrowsers } from './browser.js';

// A setup file's `afterAll` runs after the test file's own (hooks unwind like a stack), so the
// file's devices are closed before its shared Chromium is.
afterAll(closeBrowsers);
