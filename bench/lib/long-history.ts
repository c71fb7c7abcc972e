import fs from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import { LIMITS } from '../../src/limits.js';
import { DaemonProcess } from './daemon-process.js';
import { promptDoneSchema, sessionOpenedSchema } from './ipc-schema.js';
import { LoadDriver } from './load-driver.js';

/**
 * Long histories for B-LONG without running their turns through the hub: one real turn of the
 * simulator's default scenario (reasoning, a `Read` tool call, a Markdown answer) is recorded
 * from the simulator's own session file, then copied N times with fresh ids into the files of M
 * sessions, written where the hub's simulator keeps them (`<state-dir>/sim/sessions/`, src/config/state-paths.ts
 * and src/simulator/session-store.ts) before the daemon starts. What the hub itself would keep
 * after serving those turns (an author per prompt, a mark per session) is written beside them
 * (`seedHubState`).
 */
const storedSchema = z.looseObject({
  version: z.literal(1),
  info: z.looseObject({ sessionId: z.string(), title: z.string(), createdAt: z.number(), updatedAt: z.number() }),
  turnCount: z.number(),
  messages: z.array(
    z.looseObject({ info: z.looseObject({ messageId: z.string() }), parts: z.array(z.looseObject({ partId: z.string() })) }),
  ),
});
type Stored = z.infer<typeof storedSchema>;

/** The simulator's file of one session that answered one default-scenario prompt. */
export async function recordOneTurn(): Promise<Stored> {
  const d = await DaemonProcess.spawn();
  try {
    await d.waitHealthy(true);
    const load = await LoadDriver.start();
    try {
      await load.send({ op: 'connect', wsUrl: d.wsUrl, tokens: [d.adminToken], count: 1, protocol: 'acp' });
      const o = await load.call(sessionOpenedSchema, { op: 'newSession', client: 0, cwd: d.workspace });
      await load.call(promptDoneSchema, { op: 'prompt', client: 0, sessionId: o.sessionId, text: 'explain the project layout' }, 60_000);
      const file = path.join(d.stateDir, 'sim', 'sessions', `${encodeURIComponent(o.sessionId)}.json`);
      // The simulator writes its file when the turn ends; the prompt's answer may come first.
      const deadline = Date.now() + 30_000;
      for (;;) {
        const turn = fs.existsSync(file) ? storedSchema.parse(JSON.parse(fs.readFileSync(file, 'utf8'))) : undefined;
        if (turn && turn.turnCount >= 1 && turn.messages.length >= 2) return turn;
        if (Date.now() > deadline) throw new Error(`no finished turn in ${file}`);
        await new Promise((r) => setTimeout(r, 50));
      }
    } finally {
      await load.stop();
    }
  } finally {
    await d.stop();
  }
}

/** Every id in the turn that must be unique per copy (message, part and tool call ids). */
function idsOf(turn: Stored): string[] {
  const ids = new Set<string>();
  for (const m of turn.messages) {
    ids.add(m.info.messageId);
    for (const p of m.parts) {
      ids.add(p.partId);
      const call = (p as Record<string, unknown>)['toolCallId'] ?? (p as Record<string, unknown>)['callId'];
      if (typeof call === 'string') ids.add(call);
    }
  }
  return [...ids].sort((a, b) => b.length - a.length);
}

const escapeRegExp = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * Writes `sessions` session files of `turns` copies of `template`'s turn each, for a daemon whose
 * temp root is `root` and whose workspace is `<root>/workspace`; answers the session ids (newest first).
 */
export function seedSessions(root: string, template: Stored, sessions: number, turns: number): string[] {
  const dir = path.join(root, 'state', 'sim', 'sessions');
  fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
  fs.chmodSync(path.join(root, 'state'), 0o700);
  fs.chmodSync(path.join(root, 'state', 'sim'), 0o700);
  const oldId = template.info.sessionId;
  const ids = idsOf(template);
  const pattern = new RegExp(ids.map(escapeRegExp).join('|'), 'g');
  const workspace = path.join(root, 'workspace');
  const turnText = JSON.stringify(template.messages).split(template.info.sessionId).join('\u0000SID\u0000');
  const out: string[] = [];
  const now = Date.now();
  for (let s = 0; s < sessions; s++) {
    const sessionId = `sess_long_${String(s).padStart(3, '0')}`;
    const withSession = turnText.split('\u0000SID\u0000').join(sessionId);
    const messages: unknown[] = [];
    for (let t = 0; t < turns; t++) messages.push(...(JSON.parse(withSession.replace(pattern, (id) => `${id}_${t}`)) as unknown[]));
    const info = {
      ...template.info,
      sessionId,
      title: `long session ${s}`,
      workspace: { ...(template.info['workspace'] as object), workspacePath: workspace },
      createdAt: now - 86_400_000,
      updatedAt: now - s * 1000,
    };
    const file = { ...template, info, turnCount: turns, messages };
    fs.writeFileSync(path.join(dir, `${sessionId}.json`), JSON.stringify(file).split(oldId).join(sessionId), { mode: 0o600 });
    out.push(sessionId);
  }
  return out;
}

/**
 * What a hub that served `turns` turns in each of `sessionIds` keeps of them itself: one prompt
 * author per turn, up to LIMITS.authorsMax (the newest), and each session's mark (its last
 * answer's preview and its context usage). Written in the whole-file form of `authors.json` and
 * `session-marks.json`, which every build reads (a build that keeps them as logs moves them into
 * its logs at start), so two builds of the hub meet the same history.
 */
export function seedHubState(root: string, sessionIds: readonly string[], turns: number): void {
  const state = path.join(root, 'state');
  const total = sessionIds.length * turns;
  const entries: unknown[] = [];
  for (let n = Math.max(0, total - LIMITS.authorsMax); n < total; n++) {
    const s = sessionIds[n % sessionIds.length]!;
    entries.push({ k: 'prompt', s, id: `msg_user_${Math.floor(n / sessionIds.length)}`, ...AUTHOR });
  }
  fs.writeFileSync(path.join(state, 'authors.json'), JSON.stringify({ version: 1, entries }), { mode: 0o600 });
  const now = Date.now();
  const marks = Object.fromEntries(
    sessionIds.map((s, i) => [
      s,
      {
        preview: { role: 'agent', text: PREVIEW.slice(0, LIMITS.sessionPreviewChars) },
        usage: { sessionUpdate: 'usage_update', used: 12_000 + i, size: 200_000 },
        at: now - i * 1000,
      },
    ]),
  );
  fs.writeFileSync(path.join(state, 'session-marks.json'), `${JSON.stringify({ marks })}\n`, { mode: 0o600 });
}

const AUTHOR = {
  name: 'Ana phone',
  clientId: 'c_5f2b0c1e9d',
  person: 'ana',
  device: 'Ana phone',
  tokenId: 'tok_8d1e2f3a4b5c',
  client: 'zcode-web',
};
const PREVIEW =
  'Answer · The cart total was off because the discount ran before the tax, so the rounding happened twice; it now runs after it and the test covers both orders.';
