import { calculateJwkThumbprint, decodeProtectedHeader, EmbeddedJWK, jwtVerify } from 'jose';
import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { listsMachine, parseAddLink, machineBaseUrl } from '../../web/src/machines/add-link.js';
import { accessTokenHash, createProof, htuOf, newKeyPair, publicJwk } from '../../web/src/machines/dpop.js';
import { fixCommand, machineStatusText, refusalText, revokeCommand } from '../../web/src/machines/machine-status.js';
import { UPGRADE_REFUSED } from '../../web/src/net/rpc-connection.js';
import { classifyReach } from '../../web/src/machines/reach.js';
import { parseRoute, routePath, type Route } from '../../web/src/router-paths.js';

describe('DPoP proofs made with WebCrypto (RFC 9449)', () => {
  it('verify with the embedded key and carry jti, htm, htu, iat and ath', async () => {
    const keys = await newKeyPair();
    expect(keys.privateKey.extractable).toBe(false);
    const proof = await createProof(keys, {
      method: 'post',
      url: 'http://127.0.0.1:4001/api/ws-ticket?x=1#f',
      token: 'tok.en',
      now: 1_700_000_000,
    });
    const header = decodeProtectedHeader(proof);
    expect(header).toMatchObject({ typ: 'dpop+jwt', alg: 'ES256' });
    expect(Object.keys(header.jwk ?? {}).sort()).toEqual(['crv', 'kty', 'x', 'y']);
    const { payload } = await jwtVerify(proof, EmbeddedJWK, {
      typ: 'dpop+jwt',
      algorithms: ['ES256'],
      currentDate: new Date(1_700_000_000_000),
    });
    expect(payload).toMatchObject({ htm: 'POST', htu: 'http://127.0.0.1:4001/api/ws-ticket', iat: 1_700_000_000 });
    expect(payload['ath']).toBe(createHash('sha256').update('tok.en').digest('base64url'));
    expect(typeof payload.jti).toBe('string');
    // The thumbprint the hub puts in cnf.jkt is the one of the key the proof carries.
    expect(await calculateJwkThumbprint(header.jwk as Parameters<typeof calculateJwkThumbprint>[0])).toBe(
      await calculateJwkThumbprint(await publicJwk(keys.publicKey)),
    );
  });

  it('never repeat a jti and leave ath out when there is no token yet (pairing)', async () => {
    const keys = await newKeyPair();
    const a = await jwtVerify(await createProof(keys, { method: 'POST', url: 'http://h/api/pair' }), EmbeddedJWK);
    const b = await jwtVerify(await createProof(keys, { method: 'POST', url: 'http://h/api/pair' }), EmbeddedJWK);
    expect(a.payload.jti).not.toBe(b.payload.jti);
    expect(a.payload['ath']).toBeUndefined();
    expect(await accessTokenHash('')).toBe(createHash('sha256').update('').digest('base64url'));
  });

  it('a proof signed with another key does not verify against the first key', async () => {
    const one = await newKeyPair();
    const two = await newKeyPair();
    const proof = await createProof(two, { method: 'GET', url: 'http://h/api/me', token: 't' });
    const { importJWK } = await import('jose');
    await expect(jwtVerify(proof, await importJWK(await publicJwk(one.publicKey), 'ES256'))).rejects.toThrow();
    expect(htuOf('https://a.example/x/y?q#h')).toBe('https://a.example/x/y');
  });
});

describe('the add-machine link', () => {
  it('parses code, hub, name, scope and id', () => {
    const hash = `#add=ABCD-1234&hub=${encodeURIComponent('http://127.0.0.1:4002/')}&name=${encodeURIComponent('build box')}&scope=view&id=0b6f`;
    expect(parseAddLink(hash)).toEqual({
      code: 'ABCD-1234',
      hub: 'http://127.0.0.1:4002',
      name: 'build box',
      scope: 'view',
      hubId: '0b6f',
    });
  });

  it('refuses what it cannot trust', () => {
    expect(parseAddLink('#pair=X')).toBeUndefined();
    expect(parseAddLink('#add=X&hub=javascript%3Aalert(1)')).toBeUndefined();
    expect(parseAddLink('#add=X&hub=http%3A%2F%2Fu%3Ap%40h')).toBeUndefined();
    expect(parseAddLink('#add=X&hub=http%3A%2F%2Fh&scope=admin')).toBeUndefined();
    expect(parseAddLink('#add=&hub=http%3A%2F%2Fh')).toBeUndefined();
    expect(parseAddLink('#add=X&hub=http%3A%2F%2Fh')).toEqual({ code: 'X', hub: 'http://h', name: 'h', scope: 'operate' });
    expect(machineBaseUrl('https://desk.tail.ts.net/hub/?x=1')).toBe('https://desk.tail.ts.net/hub');
  });

  it('is listed at home only for the same hubId at the same base URL (what a view device may pair again)', () => {
    const link = { code: 'X', hub: 'http://127.0.0.1:4002', name: 'desktop', scope: 'operate', hubId: 'b1' } as const;
    const listed = (...machines: unknown[]) => listsMachine({ machines }, link);
    expect(listed({ hubId: 'b1', url: 'http://127.0.0.1:4002', name: 'desktop', addedAt: 1 })).toBe(true);
    // The home hub stores the URL normalised; a trailing slash or an upper-case host is the same URL.
    expect(listed({ hubId: 'b1', url: 'HTTP://127.0.0.1:4002/' })).toBe(true);
    expect(listed({ hubId: 'a0', url: 'http://127.0.0.1:4001' }, { hubId: 'b1', url: 'http://127.0.0.1:4002' })).toBe(true);
    // Another machine at that URL, the machine at another origin or path: pairing would need a new listing.
    expect(listed({ hubId: 'c2', url: 'http://127.0.0.1:4002' })).toBe(false);
    expect(listed({ hubId: 'b1', url: 'http://localhost:4002' })).toBe(false);
    expect(listed({ hubId: 'b1', url: 'http://127.0.0.1:4003' })).toBe(false);
    expect(listed({ hubId: 'b1', url: 'http://127.0.0.1:4002/other' })).toBe(false);
    expect(listed({ hubId: 'b1' }), 'an entry without a URL').toBe(false);
    expect(listed()).toBe(false);
    // A link without a hubId cannot be matched, and an answer that is not a list lists nothing.
    expect(listsMachine({ machines: [{ hubId: 'b1', url: link.hub }] }, { ...link, hubId: undefined })).toBe(false);
    expect(listsMachine({ machines: 'b1' }, link)).toBe(false);
    expect(listsMachine(undefined, link)).toBe(false);
  });
});

describe('telling offline from not allowed from revoked', () => {
  it('classifies what the two health probes saw', () => {
    expect(classifyReach(true, true, 'A', 'A')).toBe('up');
    expect(classifyReach(true, true, undefined, 'A')).toBe('up');
    expect(classifyReach(true, true, 'B', 'A')).toBe('wrong_hub');
    expect(classifyReach(false, true, undefined, 'A')).toBe('not_allowed');
    expect(classifyReach(false, false, undefined, 'A')).toBe('offline');
  });

  it('says the state and the command that fixes it', () => {
    expect(machineStatusText({ status: 'online' })).toBe('online');
    expect(machineStatusText({ status: 'unauthorized' })).toBe('access revoked');
    expect(machineStatusText({ status: 'not_allowed' })).toBe('not allowed');
    expect(machineStatusText({ status: 'offline', downSince: Date.UTC(2026, 0, 1, 14, 2) }, 'en-GB')).toMatch(/^offline since \d\d:\d\d$/);
    expect(fixCommand({ status: 'not_allowed' }, 'http://localhost:1')).toBe('zcode-hub peers add http://localhost:1');
    expect(fixCommand({ status: 'unauthorized' }, 'http://localhost:1')).toBe('zcode-hub pair --into http://localhost:1');
    expect(fixCommand({ status: 'offline' }, 'http://localhost:1')).toBeUndefined();
    expect(revokeCommand('t-1')).toBe('zcode-hub token revoke t-1');
  });

  it('a refusal is named as one, with the hub’s reason (or the upgrade it would not open), never as offline', () => {
    expect(machineStatusText({ status: 'refused' })).toBe('refused');
    expect(refusalText({ refusal: 'Too many connections for this token (429 HUB_ERR_RATE_LIMITED)' })).toBe(
      'Too many connections for this token (429 HUB_ERR_RATE_LIMITED)',
    );
    expect(refusalText({ refusal: UPGRADE_REFUSED })).toBe('it would not open the live connection (its log says why)');
    expect(fixCommand({ status: 'refused' }, 'http://localhost:1')).toBe('zcode-hub doctor');
  });
});

describe('deep links to another machine', () => {
  it('/m/<hubId>/s/<sessionId> round-trips and keeps the home routes as they were', () => {
    const routes: Route[] = [
      { name: 'chat', sessionId: 'sess_1', hubId: 'hub-b' },
      { name: 'changes', sessionId: 'sess_1', hubId: 'hub b', file: 'a.ts' },
      { name: 'files', sessionId: 'sess_1', hubId: 'h', path: 'src' },
      { name: 'chat', sessionId: 'sess_1' },
      { name: 'settings', page: 'machines' },
    ];
    for (const r of routes) expect(parseRoute(routePath(r))).toEqual(r);
    expect(routePath({ name: 'chat', sessionId: 's', hubId: 'h' })).toBe('/m/h/s/s');
    expect(parseRoute('/m/h')).toEqual({ name: 'sessions' });
  });
});
