import { describe, expect, it } from 'vitest';
import { backoffDelay } from '../../web/src/net/backoff.js';
import { base64Bytes, fitWithin, outputMime } from '../../web/src/media/downscale-math.js';
import { diffLines, trimContext } from '../../web/src/diff-lines.js';
import { pickLocale } from '../../web/src/locale.js';
import { parseRoute, routePath } from '../../web/src/router-paths.js';
import { NEEDS_ADMIN_PATH, NEEDS_OPERATE_PATH, needsScopePath } from '../../src/http/error-page.js';

describe('web helpers', () => {
  it('image downscale math keeps the aspect ratio within the longest edge', () => {
    expect(fitWithin(4032, 3024, 1600)).toEqual({ width: 1600, height: 1200, scaled: true });
    expect(fitWithin(3024, 4032, 1600)).toEqual({ width: 1200, height: 1600, scaled: true });
    expect(fitWithin(800, 600, 1600)).toEqual({ width: 800, height: 600, scaled: false });
    expect(fitWithin(10000, 1, 1600)).toEqual({ width: 1600, height: 1, scaled: true });
    expect(fitWithin(0, 10, 1600).width).toBe(0);
    expect(outputMime('image/png')).toBe('image/png');
    expect(outputMime('image/heic')).toBe('image/jpeg');
    expect(base64Bytes(8)).toBe(6);
  });

  it('reconnect backoff doubles, is capped and jittered', () => {
    expect(backoffDelay(0, 0)).toBe(250);
    expect(backoffDelay(0, 1)).toBe(500);
    expect(backoffDelay(3, 1)).toBe(4000);
    expect(backoffDelay(50, 1)).toBe(15_000);
    expect(backoffDelay(50, 0)).toBe(7_500);
  });

  it('line diff of a tool edit', () => {
    expect(diffLines('a\nb\nc', 'a\nB\nc')).toEqual([
      { op: ' ', text: 'a' },
      { op: '-', text: 'b' },
      { op: '+', text: 'B' },
      { op: ' ', text: 'c' },
    ]);
    expect(diffLines(null, 'x\ny').every((l) => l.op === '+')).toBe(true);
    const long = Array.from({ length: 20 }, (_, i) => `l${i}`).join('\n');
    const trimmed = trimContext(diffLines(long, long.replace('l10', 'L10')), 1);
    expect(trimmed.map((l) => l.op)).toEqual(['…', ' ', '-', '+', ' ', '…']);
  });

  it('picks Simplified Chinese for zh locales, English otherwise', () => {
    expect(pickLocale(['zh-CN'])).toBe('zh-CN');
    expect(pickLocale(['zh-Hans-SG', 'en'])).toBe('zh-CN');
    expect(pickLocale(['fr-FR', 'en-GB'])).toBe('en');
    expect(pickLocale([])).toBe('en');
  });

  it('client routes round-trip through their paths', () => {
    for (const r of [
      { name: 'sessions' },
      { name: 'chat', sessionId: 'sess/1 x' },
      { name: 'inbox' },
      { name: 'needsAdmin' },
      { name: 'needsAdmin', from: '/api/people' },
      { name: 'needsOperate' },
      { name: 'settings' },
      { name: 'settings', page: 'devices' },
      { name: 'settings', page: 'policy' },
      { name: 'settings', page: 'doctor' },
      { name: 'changes', sessionId: 's1' },
      { name: 'changes', sessionId: 's1', file: '/w/a b.ts' },
      { name: 'files', sessionId: 's1' },
      { name: 'files', sessionId: 's1', path: 'src/x y' },
      { name: 'files', sessionId: 's1', path: 'src/a.ts', isFile: true },
    ] as const) {
      expect(parseRoute(routePath(r))).toEqual(r);
    }
    expect(parseRoute('/nope/x')).toEqual({ name: 'sessions' });
    // The hub's redirect for a non-admin device that opened /docs (src/http/error-page.ts NEEDS_ADMIN_PATH).
    expect(parseRoute(NEEDS_ADMIN_PATH)).toEqual({ name: 'needsAdmin' });
    // …which names the address opened (needsScopePath); only a plain path of this hub is taken.
    expect(parseRoute(needsScopePath('admin', '/api/tokens?ticket=x'))).toEqual({ name: 'needsAdmin', from: '/api/tokens' });
    expect(parseRoute('/needs-admin?from=https%3A%2F%2Fevil.example')).toEqual({ name: 'needsAdmin' });
    expect(parseRoute('/needs-admin?from=%2F%3Cscript%3E')).toEqual({ name: 'needsAdmin' });
    expect(needsScopePath('operate', '/api/workspaces')).toBe(NEEDS_OPERATE_PATH);
    // …and for a view device that opened an operate address (NEEDS_OPERATE_PATH).
    expect(parseRoute(NEEDS_OPERATE_PATH)).toEqual({ name: 'needsOperate' });
  });
});
