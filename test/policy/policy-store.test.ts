import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { LIMITS } from '../../src/limits.js';
import { isLocalPeer } from '../../src/policy/local-peer.js';
import { PolicyStore } from '../../src/policy/policy-store.js';

/** policy.json on a real temp dir (src/policy/policy-store.ts) and who counts as local (local-peer.ts). */

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) fs.rmSync(d, { recursive: true, force: true });
});
const tempFile = () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'zch-policy-'));
  dirs.push(dir);
  return path.join(dir, 'policy.json');
};

describe('PolicyStore', () => {
  it('a missing file is revision 0 without rules; a replace is written 0600 and read back by the next start', () => {
    const file = tempFile();
    const store = new PolicyStore(file, LIMITS);
    expect(store.current).toEqual({ revision: 0, rules: [] });
    const change = store.replace([{ id: 'a', match: {}, decide: 'deny' }], 0);
    expect(change.after.revision).toBe(1);
    expect(change.diff).toEqual({ added: ['a'], removed: [], changed: [], moved: false });
    expect(fs.statSync(file).mode & 0o777).toBe(0o600);
    expect(new PolicyStore(file, LIMITS).current).toEqual(change.after);
  });

  it('a stale revision is a 409 conflict; a bad rule a 400 naming the field; neither changes the file', () => {
    const file = tempFile();
    const store = new PolicyStore(file, LIMITS);
    store.replace([]);
    expect(() => store.replace([], 0)).toThrow(expect.objectContaining({ code: 'HUB_ERR_CONFLICT' }));
    expect(() => store.replace([{ id: 'a', match: {}, decide: 'ask', quorum: 0 }])).toThrow(/rules\.0\.quorum/);
    expect(new PolicyStore(file, LIMITS).current.revision).toBe(1);
  });

  it('an unreadable policy.json stops the start with the reason instead of dropping the rules', () => {
    const file = tempFile();
    fs.writeFileSync(file, '{"revision": 1, "rules": [{"id": "x", "match": {}, "decide": "sometimes"}]}');
    expect(() => new PolicyStore(file, LIMITS)).toThrow(/rules\.0\.decide/);
    // A quorum on a rule that names questions was never meaningful: refused at the start too.
    fs.writeFileSync(file, '{"revision": 1, "rules": [{"id": "x", "match": {"kind": "question"}, "decide": "ask", "quorum": 2}]}');
    expect(() => new PolicyStore(file, LIMITS)).toThrow(/rules\.0\.quorum: a quorum counts people who allow/);
    fs.writeFileSync(file, '{not json');
    expect(() => new PolicyStore(file, LIMITS)).toThrow(/not JSON/);
  });
});

describe('isLocalPeer', () => {
  it('loopback peers without a forwarding header are local; any other peer or any forwarding header is not', () => {
    expect(isLocalPeer('127.0.0.1', {})).toBe(true);
    expect(isLocalPeer('::1', {})).toBe(true);
    expect(isLocalPeer('::ffff:127.0.0.1', {})).toBe(true);
    expect(isLocalPeer('192.168.1.20', {})).toBe(false);
    expect(isLocalPeer('100.64.0.7', {})).toBe(false);
    expect(isLocalPeer(undefined, {})).toBe(false);
    expect(isLocalPeer('127.0.0.1', { 'x-forwarded-for': '127.0.0.1' })).toBe(false);
    expect(isLocalPeer('127.0.0.1', { forwarded: 'for=203.0.113.1' })).toBe(false);
    expect(isLocalPeer('127.0.0.1', { 'cf-connecting-ip': '203.0.113.1' })).toBe(false);
  });
});
