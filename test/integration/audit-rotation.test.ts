/**
 * The audit log is bounded on disk (`auditLogMaxBytes`): a real daemon whose acts take the log past
 * its bound moves it to `audit.jsonl.1` and starts a new one, says so in its log, keeps every file
 * 0600, and `GET /api/audit` pages through both files in order with no seq missing or repeated —
 * only entries older than the last rotation but one are gone.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { AUDIT_ROTATED_FILE } from '../../src/auth/audit-log.js';
import { LIMITS } from '../../src/limits.js';
import { startHub, type HubHarness } from '../helpers/hub-harness.js';
import { captureLogger } from '../security/helpers/log-capture.js';

const MAX = 4_096;
const captured = captureLogger('audit-rotation');
let hub: HubHarness;

beforeAll(async () => {
  hub = await startHub({ limits: { auditLogMaxBytes: MAX }, logger: captured.logger });
});
afterAll(async () => {
  await hub?.close();
});

const page = z.object({ entries: z.array(z.object({ seq: z.number(), action: z.string() })), nextCursor: z.string().optional() });

describe(`the audit log crosses auditLogMaxBytes (default ${LIMITS.auditLogMaxBytes} bytes)`, () => {
  it('rotates to audit.jsonl.1, says so, and GET /api/audit walks both files in order', async () => {
    const phone = await hub.token('operate', 'Busy phone');
    // Each folder listing is one audit entry (about 300 bytes).
    for (let i = 0; i < 40; i++)
      expect((await hub.api(`/api/workspaces/dirs?path=${encodeURIComponent(hub.workspace)}`, { token: phone })).status).toBe(200);

    const current = path.join(hub.stateDir, 'audit.jsonl');
    const older = path.join(hub.stateDir, AUDIT_ROTATED_FILE);
    for (const f of [current, older]) {
      expect(fs.statSync(f).size, f).toBeLessThanOrEqual(MAX);
      expect(fs.statSync(f).mode & 0o777, f).toBe(0o600);
    }
    const rotations = fs
      .readFileSync(captured.file, 'utf8')
      .split('\n')
      .filter((l) => l.includes('audit log rotated'))
      .map((l) => z.object({ lastSeq: z.number() }).parse(JSON.parse(l)).lastSeq);
    expect(rotations.length).toBeGreaterThan(1);

    const seqs: number[] = [];
    let actions = new Set<string>();
    for (let cursor: string | undefined = '0'; cursor !== undefined; ) {
      const res = page.parse(await (await hub.api(`/api/audit?cursor=${cursor}&limit=7`)).json());
      seqs.push(...res.entries.map((e) => e.seq));
      actions = new Set([...actions, ...res.entries.map((e) => e.action)]);
      cursor = res.nextCursor;
    }
    // From the first entry after the rotation before last, to the last one written: none missing, none twice.
    const first = (rotations.at(-2) ?? 0) + 1;
    expect(seqs[0]).toBe(first);
    expect(seqs).toEqual(Array.from({ length: seqs.length }, (_, i) => first + i));
    expect(seqs.length).toBeGreaterThan(MAX / 1_000);
    expect(actions.has('workspace.dirs')).toBe(true);
    // The older file is as private as the log: hard-linked into the workspace, it is not served.
    fs.linkSync(older, path.join(hub.workspace, 'old-audit.txt'));
    const read = await hub.api(`/api/instances/zcode-hub/fs/file?path=old-audit.txt`, { token: phone });
    expect(read.status).toBe(403);
    expect(await read.text()).not.toContain('Busy phone');
  });
});
