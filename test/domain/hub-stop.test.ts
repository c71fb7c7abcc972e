/**
 * The stop watchdog (APP-SERVER.md §11 item 7) against the real simulator: with `--ignore-stop`
 * the child answers the stop but keeps streaming, so the hub ends the turn itself after
 * `stopSettleMs`; without it, the real `turn.completed` arrives first and nothing is synthesised.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { createLogger } from '../../src/logger.js';
import { RecorderClient, startRig, until, type DomainRig } from './helpers.js';

let rig: DomainRig | undefined;
afterEach(async () => {
  await rig?.close();
  rig = undefined;
});

const text = (t: string) => [{ type: 'text' as const, text: t }];
const SYNTHESISED = 'the agent did not confirm the stop; ending the turn locally';

/** A logger that keeps its lines, to see whether the watchdog fired. */
function capturingLogger(): { logger: ReturnType<typeof createLogger>; messages: () => string[] } {
  const lines: string[] = [];
  const logger = createLogger({ level: 'warn', destination: { write: (line: string) => void lines.push(line) } });
  return { logger, messages: () => lines.map((l) => (JSON.parse(l) as { msg: string }).msg) };
}

/** `turn.completed` turn ids the child wrote for a session so far. */
function completedTurns(r: DomainRig, sessionId: string): string[] {
  return r.notifications
    .filter((n) => n.method === 'session/event')
    .map((n) => n.params as { sessionId?: string; type?: string; turnId?: string; payload?: { turnId?: string } })
    .filter((e) => e.sessionId === sessionId && e.type === 'turn.completed')
    .map((e) => e.turnId ?? e.payload?.turnId ?? '');
}

type TurnStateNote = { state: string; turnId?: string; queue: unknown[] };

/**
 * A slow turn prompted by a, b's prompt queued behind it, then a's cancel — with the simulator
 * fault switches `faults` and a 300 ms stop watchdog.
 */
async function stopWithQueuedPrompt(faults: string[]) {
  const log = capturingLogger();
  rig = await startRig({
    limits: { stopSettleMs: 300 },
    simArgs: [...faults, '--scenario', 'slow', '--turn-delay-scale', '0.3'],
    logger: log.logger,
  });
  const r = rig;
  const a = new RecorderClient({ name: 'a' });
  const b = new RecorderClient({ name: 'b' });
  const { sessionId } = await r.hub.newSession(a, { cwd: r.config.workspace });
  await r.hub.loadSession(b, sessionId, { history: false });
  const running = r.hub.prompt(a, sessionId, text('long one'));
  const queued = r.hub.prompt(b, sessionId, text('next one'));
  const started = await a.waitFor(
    () => (a.notes('_zcode/turn_state') as TurnStateNote[]).find((t) => t.state === 'running' && t.turnId !== undefined),
    'turn started',
  );
  await r.hub.cancel(a, sessionId);
  return { r, log, a, b, sessionId, running, queued, started };
}

describe('Hub over the real simulator: stop watchdog', () => {
  it('a stop the child never completes: the prompt resolves cancelled after stopSettleMs, idle is published, the queue continues after the real boundary, the late end resolves nothing twice', async () => {
    const { r, log, a, sessionId, running, queued, started } = await stopWithQueuedPrompt(['--ignore-stop']);
    const result = await running;
    expect(result).toMatchObject({ stopReason: 'cancelled', turnId: started.turnId });
    // Synthesised: the child has not ended that turn.
    expect(completedTurns(r, sessionId)).not.toContain(started.turnId);
    expect(log.messages().filter((m) => m === SYNTHESISED)).toHaveLength(1);
    const states = (a.notes('_zcode/turn_state') as TurnStateNote[]).map((t) => t.state);
    expect(states.slice(states.indexOf('stopping'))).toContain('idle');
    // b's prompt stayed queued (another client's) and runs once the child's own boundary arrives.
    const next = await queued;
    expect(next.stopReason).toBe('end_turn');
    expect(next.turnId).toBeDefined();
    expect(next.turnId).not.toBe(started.turnId);
    // The stopped turn did end for real later, before b's turn ran; it resolved nothing again.
    const completed = completedTurns(r, sessionId);
    expect(completed.indexOf(started.turnId as string)).toBeGreaterThan(-1);
    expect(completed.indexOf(started.turnId as string)).toBeLessThan(completed.indexOf(next.turnId as string));
    expect(log.messages().filter((m) => m === SYNTHESISED)).toHaveLength(1);
    await until(() => (a.notes('_zcode/turn_state') as TurnStateNote[]).at(-1)?.state === 'idle', 'idle at the end');
  }, 60_000);

  it("a stop the child finalises only as the next prompt arrives (--late-stop): the old turn's boundary does not end that prompt, which answers at the end of its own turn", async () => {
    const { r, log, b, sessionId, running, queued, started } = await stopWithQueuedPrompt(['--late-stop', '--turn-start-ms', '150']);
    expect(await running).toMatchObject({ stopReason: 'cancelled', turnId: started.turnId });
    expect(log.messages().filter((m) => m === SYNTHESISED)).toHaveLength(1);
    // The synthesised end sent b's prompt; the child ended the stopped turn only then, so its
    // prompt_completed arrived after b's send was written. b's prompt still waits for its own turn.
    const next = await queued;
    expect(next.stopReason).toBe('end_turn');
    expect(next.turnId).toBeDefined();
    expect(next.turnId).not.toBe(started.turnId);
    const completed = completedTurns(r, sessionId);
    expect(completed).toContain(next.turnId);
    expect(completed.indexOf(started.turnId as string)).toBeLessThan(completed.indexOf(next.turnId as string));
    await until(() => (b.notes('_zcode/turn_state') as TurnStateNote[]).at(-1)?.state === 'idle', 'idle at the end');
  }, 60_000);

  it('a stop the child completes: the real end wins and the watchdog never fires', async () => {
    const log = capturingLogger();
    rig = await startRig({ limits: { stopSettleMs: 300 }, simArgs: ['--scenario', 'slow'], logger: log.logger });
    const r = rig;
    const a = new RecorderClient();
    const { sessionId } = await r.hub.newSession(a, { cwd: r.config.workspace });
    const running = r.hub.prompt(a, sessionId, text('long one'));
    const started = await a.waitFor(
      () => (a.notes('_zcode/turn_state') as TurnStateNote[]).find((t) => t.turnId !== undefined),
      'turn started',
    );
    await r.hub.cancel(a, sessionId);
    expect(await running).toMatchObject({ stopReason: 'cancelled', turnId: started.turnId });
    expect(completedTurns(r, sessionId)).toContain(started.turnId);
    // Past the settle time nothing is synthesised (the real end cleared the timer).
    await new Promise((resolve) => setTimeout(resolve, 900));
    expect(log.messages()).not.toContain(SYNTHESISED);
    expect((a.notes('_zcode/turn_state') as TurnStateNote[]).at(-1)?.state).toBe('idle');
  }, 60_000);
});

describe('Hub over the real simulator: a refusal that comes after the prompt ended', () => {
  it('a prompt cancelled and ended locally while its send waits for a late -32010 is never put back in the queue nor run', async () => {
    const log = capturingLogger();
    // Sends are answered 1.5 s late (outside the child's serial queue); stops never end a turn.
    rig = await startRig({
      limits: { stopSettleMs: 300 },
      simArgs: ['--ignore-stop', '--late-method', 'session/send=1500', '--turn-delay-scale', '0.5'],
      logger: log.logger,
    });
    const r = rig;
    const a = new RecorderClient({ name: 'a' });
    const b = new RecorderClient({ name: 'b' });
    const { sessionId } = await r.hub.newSession(a, { cwd: r.config.workspace });
    await r.hub.loadSession(b, sessionId, { history: false });
    const first = r.hub.prompt(a, sessionId, text('slow one'));
    const started = await a.waitFor(
      () => (a.notes('_zcode/turn_state') as TurnStateNote[]).find((t) => t.state === 'running' && t.turnId !== undefined),
      'turn started',
    );
    const second = r.hub.prompt(b, sessionId, text('second prompt'));
    await r.hub.cancel(a, sessionId);
    expect(await first).toMatchObject({ stopReason: 'cancelled', turnId: started.turnId });
    // The watchdog's end sent b's prompt; the child, still running a's turn, refuses it — late.
    await a.waitFor(
      () => a.updates().find((u) => u.update.sessionUpdate === 'user_message_chunk' && JSON.stringify(u.update).includes('second prompt')),
      "b's prompt echoed (sent)",
    );
    await r.hub.cancel(b, sessionId);
    expect(await second).toMatchObject({ stopReason: 'cancelled' });
    expect(log.messages().filter((m) => m === SYNTHESISED)).toHaveLength(2);
    // a's turn ends for real only after the refusal of b's send has come back.
    await until(() => completedTurns(r, sessionId).includes(started.turnId as string), "a's turn really over", 30_000);
    const third = await r.hub.prompt(a, sessionId, text('third prompt'));
    expect(third.stopReason).toBe('end_turn');
    // Two turns ran: a's stopped one and the third prompt's; b's cancelled prompt never ran.
    const turns = r.notifications
      .filter((n) => n.method === 'session/event')
      .map((n) => n.params as { sessionId?: string; type?: string })
      .filter((e) => e.sessionId === sessionId && e.type === 'turn.started');
    expect(turns).toHaveLength(2);
    expect(completedTurns(r, sessionId)).toEqual([started.turnId, third.turnId]);
  }, 60_000);
});
