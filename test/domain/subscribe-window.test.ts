/**
 * A `session/subscribe` with `afterSeq` against the real
 * simulator child, while a turn streams. The hub last saw seq X; the child has events after X
 * the hub never got live (here another delivery kind had the live push meanwhile — seq spaces
 * are per kind, §5.2). With `--subscribe-lag-ms` the child answers the subscribe late, so live
 * events come before the answer and its backlog: every delta must reach the client once, in
 * order, and before the prompt that caused them is answered.
 * With `--retain-events` the child's retention trimmed the events after X: the hub must
 * reload the session from the snapshot and say so in its log, not leave a silent gap.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { EventIngest } from '../../src/domain/event-ingest.js';
import { createLogger } from '../../src/logger.js';
import { RecorderClient, startRig, until, type DomainRig } from './helpers.js';

let rig: DomainRig | undefined;
afterEach(async () => {
  await rig?.close();
  rig = undefined;
});

const EXPECTED = Array.from({ length: 100 }, (_, i) => `Step ${i + 1} of a long answer.`).join(' ');
const RELOADED = /reloading the session from its snapshot/;

function capturingLogger(): { logger: ReturnType<typeof createLogger>; messages: () => string[] } {
  const lines: string[] = [];
  const logger = createLogger({ level: 'warn', destination: { write: (line: string) => void lines.push(line) } });
  return { logger, messages: () => lines.map((l) => (JSON.parse(l) as { msg: string }).msg) };
}

function agentText(c: RecorderClient, sessionId: string): string {
  return c
    .updates()
    .filter((u) => u.sessionId === sessionId && u.update.sessionUpdate === 'agent_message_chunk')
    .map((u) => (u.update['content'] as { text?: string }).text ?? '')
    .join('');
}

/**
 * A slow turn; once it streams, the child's live push goes to another delivery kind for a while
 * (the hub misses those events), then the hub resubscribes from its watermark through the path a
 * link-side resume takes (EventIngest.onSessionResumed).
 */
async function resubscribeMidTurn(simArgs: string[], limits: Record<string, number>, pace: string) {
  const log = capturingLogger();
  rig = await startRig({ simArgs: ['--scenario', 'slow', '--turn-delay-scale', pace, ...simArgs], limits, logger: log.logger });
  const r = rig;
  const a = new RecorderClient({ name: 'a' });
  const { sessionId } = await r.hub.newSession(a, { cwd: r.config.workspace });
  const done = r.hub.prompt(a, sessionId, [{ type: 'text', text: 'long one' }]);
  await until(() => agentText(a, sessionId).length > 40, 'the turn streams');
  await r.backend.request('session/read', { sessionId, deliveryKind: 'desktop-continuous' });
  const before = agentText(a, sessionId).length;
  // Deltas the hub does not get live: pushed on the other kind's seq space.
  await until(
    () => r.notifications.filter((n) => (n.params as { deliveryKind?: string }).deliveryKind === 'desktop-continuous').length > 5,
    'events on the other kind',
  );
  expect(agentText(a, sessionId).length).toBe(before);
  (r.hub as unknown as { ingest: EventIngest }).ingest.onSessionResumed(sessionId);
  const result = await done;
  const textAtEnd = agentText(a, sessionId);
  return { r, a, sessionId, result, log, textAtEnd };
}

describe('session/subscribe with afterSeq over the real simulator', () => {
  it('live events before a late answer and its backlog: every delta once, in order', async () => {
    // Answered after the turn ends (about 3 s of streaming, the subscribe sent mid-way): its end
    // and ready boundary come live while the backlog is still on its way.
    const { a, sessionId, result, log, textAtEnd } = await resubscribeMidTurn(['--subscribe-lag-ms', '4000'], {}, '0.3');
    expect(result.stopReason).toBe('end_turn');
    // The whole answer reached the client before the prompt's end (the child's ready boundary,
    // which is not an event, waits for the held backlog).
    expect(textAtEnd).toBe(EXPECTED);
    expect(agentText(a, sessionId)).toBe(EXPECTED);
    expect(log.messages().some((m) => RELOADED.test(m))).toBe(false);
  });

  it('retention trimmed what the hub asks for: a snapshot reload, said in the log', async () => {
    // A turn of about 3 s: long enough to stream through the 1.5 s late answer.
    const { r, sessionId, result, log } = await resubscribeMidTurn(['--subscribe-lag-ms', '1500', '--retain-events', '5'], {}, '0.3');
    expect(result.stopReason).toBe('end_turn');
    await until(() => log.messages().find((m) => RELOADED.test(m) && /retention/.test(m)), 'the reload is logged');
    // A client that loads the session now gets the whole answer from history.
    const b = new RecorderClient({ name: 'b' });
    await r.hub.loadSession(b, sessionId, { history: true });
    expect(agentText(b, sessionId)).toContain(EXPECTED);
  });

  it('more live events during the subscribe than subscribeBufferMaxEvents: a snapshot reload, said in the log', async () => {
    const { result, log } = await resubscribeMidTurn(['--subscribe-lag-ms', '1500'], { subscribeBufferMaxEvents: 1 }, '0.3');
    expect(result.stopReason).toBe('end_turn');
    await until(() => log.messages().find((m) => RELOADED.test(m) && /subscribeBufferMaxEvents/.test(m)), 'the reload is logged');
  });
});
