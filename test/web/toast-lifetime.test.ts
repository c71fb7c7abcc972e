/** A toast stays long enough to be read: its bounds are WEB_LIMITS' and crossing each is shown (pure, no timers). */
import { describe, expect, it } from 'vitest';
import { toastLifetime } from '../../web/src/hub/app-state.js';
import { t } from '../../web/src/i18n.js';
import { WEB_LIMITS } from '../../web/src/limits.js';

describe('how long a toast stays', () => {
  it(`a short one toastMs (${WEB_LIMITS.toastMs} ms); a long one toastMsPerChar (${WEB_LIMITS.toastMsPerChar}) a character; never past toastMaxMs (${WEB_LIMITS.toastMaxMs})`, () => {
    expect(toastLifetime('Saved.')).toBe(WEB_LIMITS.toastMs);
    // The first length whose reading time passes the floor.
    const n = Math.ceil(WEB_LIMITS.toastMs / WEB_LIMITS.toastMsPerChar);
    expect(toastLifetime('x'.repeat(n - 1))).toBe(WEB_LIMITS.toastMs);
    expect(toastLifetime('x'.repeat(n + 1))).toBe((n + 1) * WEB_LIMITS.toastMsPerChar);
    expect(toastLifetime('x'.repeat(10_000))).toBe(WEB_LIMITS.toastMaxMs);
    // A prompt the crash loop refused: its reason is read whole before the toast goes.
    const crashLoop = t(
      'refusedNotRun',
      'The agent kept crashing and the hub stopped restarting it (crash loop). An admin can restart it from Settings, with POST /api/backend/restart, or by restarting zcode-hub',
    );
    expect(toastLifetime(crashLoop)).toBeGreaterThan(10_000);
    expect(toastLifetime(crashLoop)).toBeLessThanOrEqual(WEB_LIMITS.toastMaxMs);
  });
});
