/**
 * One prompt's state machine (src/domain/prompts/prompt-life.ts) in milliseconds: every event in every
 * phase from one table, then the variants each guard tells apart, then the child's quirks the
 * simulator switches on (`--ignore-stop`, `--late-stop`, `--silent-stop`, a prompt queued
 * behind a background turn) as the sequences of events the hub sees from them.
 */
import { describe, expect, it } from 'vitest';
import {
  PROMPT_EVENT_TYPES,
  PROMPT_TABLE,
  PromptLife,
  type PromptEndReason,
  type PromptEvent,
  type PromptEventType,
  type PromptPhase,
} from '../../src/domain/prompts/prompt-life.js';

const P = 'p1';
const T = 't1';

/** One event of each type, naming this prompt and its turn where it can. */
const CANONICAL: { [E in PromptEventType]: Extract<PromptEvent, { type: E }> } = {
  admit: { type: 'admit', boundary: 0 },
  prompt_started: { type: 'prompt_started', boundary: 0 },
  accepted: { type: 'accepted', boundaries: { count: 0, failed: false }, backgroundRunning: false },
  busy: { type: 'busy', boundary: 0 },
  send_failed: { type: 'send_failed', gone: false },
  steer_queued: { type: 'steer_queued', inputId: P },
  turn_started: { type: 'turn_started', turnId: T, inputId: P },
  turn_ended: { type: 'turn_ended', turnId: T, inputId: P, outcome: 'completed' },
  ready: { type: 'ready', failed: false, backgroundRunning: false },
  stop: { type: 'stop' },
  stop_unconfirmed: { type: 'stop_unconfirmed' },
  withdraw: { type: 'withdraw' },
  lost: { type: 'lost' },
  close: { type: 'close' },
};

/** How to reach each phase from a new prompt. */
const PATH: Record<PromptPhase, PromptEvent[]> = {
  queued: [],
  admitted: [CANONICAL.admit],
  sent: [CANONICAL.admit, CANONICAL.accepted],
  running: [CANONICAL.admit, CANONICAL.accepted, CANONICAL.turn_started],
  stopping: [CANONICAL.admit, CANONICAL.accepted, CANONICAL.turn_started, CANONICAL.stop],
  ended: [CANONICAL.admit, CANONICAL.accepted, CANONICAL.turn_started, CANONICAL.turn_ended],
};

function lifeIn(phase: PromptPhase): PromptLife {
  const life = new PromptLife(P);
  for (const e of PATH[phase]) life.apply(e);
  expect(life.phase).toBe(phase);
  return life;
}

/** What each canonical event does in each phase: `-` = ignored; else `phase[:reason][+effect]`. */
const EXPECTED: Record<PromptPhase, Record<PromptEventType, string>> = {
  queued: {
    admit: 'admitted+echo',
    prompt_started: '-',
    accepted: '-',
    busy: '-',
    send_failed: '-',
    steer_queued: '-',
    turn_started: '-',
    turn_ended: '-',
    ready: '-',
    stop: '-',
    stop_unconfirmed: '-',
    withdraw: 'ended:cancelled',
    lost: 'ended:lost',
    close: 'ended:closed',
  },
  admitted: {
    admit: '-',
    prompt_started: 'admitted',
    accepted: 'sent',
    busy: 'queued+await_boundary',
    send_failed: 'ended:send_failed',
    steer_queued: 'admitted',
    turn_started: 'running',
    turn_ended: 'ended:completed',
    // Not taken yet and no turn: a boundary of an earlier turn.
    ready: '-',
    stop: 'stopping',
    stop_unconfirmed: 'ended:cancelled',
    withdraw: '-',
    lost: 'ended:lost',
    close: 'ended:closed',
  },
  sent: {
    admit: '-',
    prompt_started: '-',
    accepted: 'sent',
    busy: 'queued+await_boundary',
    send_failed: 'ended:send_failed',
    steer_queued: 'sent',
    turn_started: 'running',
    turn_ended: 'ended:completed',
    ready: 'ended:completed',
    stop: 'stopping',
    stop_unconfirmed: 'ended:cancelled',
    withdraw: '-',
    lost: 'ended:lost',
    close: 'ended:closed',
  },
  running: {
    admit: '-',
    prompt_started: '-',
    accepted: 'running',
    busy: 'queued+await_boundary',
    send_failed: 'ended:send_failed',
    steer_queued: 'running',
    turn_started: '-',
    turn_ended: 'ended:completed',
    ready: 'ended:completed',
    stop: 'stopping',
    stop_unconfirmed: 'ended:cancelled',
    withdraw: '-',
    lost: 'ended:lost',
    close: 'ended:closed',
  },
  stopping: {
    admit: '-',
    prompt_started: '-',
    accepted: 'stopping',
    busy: 'queued+await_boundary',
    send_failed: 'ended:send_failed',
    steer_queued: 'stopping',
    turn_started: '-',
    turn_ended: 'ended:completed',
    ready: 'ended:completed',
    stop: 'stopping',
    stop_unconfirmed: 'ended:cancelled',
    withdraw: '-',
    lost: 'ended:lost',
    close: 'ended:closed',
  },
  ended: Object.fromEntries(PROMPT_EVENT_TYPES.map((t) => [t, '-'])) as Record<PromptEventType, string>,
};

function describeStep(life: PromptLife, event: PromptEvent): string {
  const step = life.apply(event);
  if (!step.applied) {
    expect(step.to).toBe(step.from);
    return '-';
  }
  const reason = step.to === 'ended' ? `:${life.reason}` : '';
  return `${step.to}${reason}${step.effect ? `+${step.effect}` : ''}`;
}

const PHASES = Object.keys(PROMPT_TABLE) as PromptPhase[];

describe('PromptLife: every event in every phase', () => {
  it('the table has a row for every phase and a rule for every event in each', () => {
    expect(PHASES).toEqual(['queued', 'admitted', 'sent', 'running', 'stopping', 'ended']);
    for (const phase of PHASES) expect(Object.keys(PROMPT_TABLE[phase]).sort()).toEqual([...PROMPT_EVENT_TYPES].sort());
    expect(PROMPT_EVENT_TYPES.sort()).toEqual(Object.keys(CANONICAL).sort());
  });

  for (const phase of PHASES)
    for (const type of PROMPT_EVENT_TYPES)
      it(`${phase} + ${type} → ${EXPECTED[phase][type]}`, () => {
        expect(describeStep(lifeIn(phase), CANONICAL[type])).toBe(EXPECTED[phase][type]);
      });

  it('live is exactly admitted, sent, running and stopping', () => {
    expect(PHASES.filter((p) => lifeIn(p).live)).toEqual(['admitted', 'sent', 'running', 'stopping']);
  });
});

/** Runs `events` on a new prompt; returns the last step's description and the life. */
function run(...events: PromptEvent[]): { last: string; life: PromptLife; steps: string[] } {
  const life = new PromptLife(P);
  const steps = events.map((e) => describeStep(life, e));
  return { last: steps.at(-1) ?? '', life, steps };
}

const admit = (boundary = 0): PromptEvent => ({ type: 'admit', boundary });
const accepted = (count = 0, failed = false, backgroundRunning = false): PromptEvent => ({
  type: 'accepted',
  boundaries: { count, failed },
  backgroundRunning,
});
const ready = (failed = false, backgroundRunning = false): PromptEvent => ({ type: 'ready', failed, backgroundRunning });
const started = (turnId = T, inputId: string | undefined = P): PromptEvent => ({ type: 'turn_started', turnId, inputId });
const ended = (turnId = T, inputId: string | undefined = P, outcome: 'completed' | 'failed' = 'completed'): PromptEvent => ({
  type: 'turn_ended',
  turnId,
  inputId,
  outcome,
});
const STOP: PromptEvent = { type: 'stop' };
const UNCONFIRMED: PromptEvent = { type: 'stop_unconfirmed' };

describe('PromptLife: what each guard tells apart', () => {
  it.each<[string, PromptEvent[], string, PromptEndReason | undefined]>([
    ['a failed turn ends it failed', [admit(), accepted(), started(), ended(T, P, 'failed')], 'ended:failed', 'failed'],
    ['a prompt_failed boundary ends it failed', [admit(), accepted(), ready(true)], 'ended:failed', 'failed'],
    ["another input's turn is not its own", [admit(), started('t9', 'other')], '-', undefined],
    ['a turn without an input id is the running prompt’s', [admit(), started('t9', undefined)], 'running', undefined],
    ['a second turn does not rebind it', [admit(), started(), started('t2', P)], '-', undefined],
    ['its turn ends by turn id when the event names no input', [admit(), started(), ended(T, undefined)], 'ended:completed', 'completed'],
    ["another turn's end is not its end", [admit(), started(), ended('t9', 'other')], '-', undefined],
    ['an input id ends it before any turn was bound', [admit(), ended('t9', P)], 'ended:completed', 'completed'],
    ["another input's steerQueued is ignored", [admit(), { type: 'steer_queued', inputId: 'other' }], '-', undefined],
    ['a send cut off by the exit is left to the loss', [admit(), { type: 'send_failed', gone: true }], '-', undefined],
    ['busy after a boundary passed lets the queue move', [admit(0), { type: 'busy', boundary: 1 }], 'queued+boundary_passed', undefined],
    ['an answer after a boundary passed ends it (the turn is over)', [admit(0), accepted(1)], 'ended:completed', 'completed'],
    ['an answer after a failed boundary ends it failed', [admit(0), accepted(1, true)], 'ended:failed', 'failed'],
    ['an answer after a boundary does not end a prompt whose turn is bound', [admit(0), started(), accepted(1)], 'running', undefined],
    [
      'prompt_started moves its boundary: the earlier one is not its end',
      [admit(0), { type: 'prompt_started', boundary: 1 }, accepted(1)],
      'sent',
      undefined,
    ],
    ['prompt_started after the answer changes nothing', [admit(0), accepted(0), { type: 'prompt_started', boundary: 1 }], '-', undefined],
    ['re-admitted after busy: not echoed twice', [admit(), { type: 'busy', boundary: 0 }, admit()], 'admitted', undefined],
  ])('%s', (_name, events, last, reason) => {
    const r = run(...events);
    expect(r.last).toBe(last);
    expect(r.life.reason).toBe(reason);
  });

  it('remembers its turn id and whether it was taken', () => {
    const { life } = run(admit(), accepted(), started('t7', P));
    expect(life.turnId).toBe('t7');
    expect(life.accepted).toBe(true);
  });

  it('after busy it is no longer stopping, but a stop asked before any answer still goes out when one comes', () => {
    const { steps, life } = run(admit(), STOP, { type: 'busy', boundary: 0 }, admit(), accepted());
    expect(steps).toEqual(['admitted+echo', 'stopping', 'queued+await_boundary', 'admitted', 'sent+send_stop']);
    expect(life.phase).toBe('sent');
  });
});

describe("PromptLife: the child's quirks", () => {
  it('--ignore-stop: the watchdog ends it cancelled; the real end and boundary that come later change nothing', () => {
    const { steps, life } = run(admit(), accepted(), started(), STOP, UNCONFIRMED, ended(), ready());
    expect(steps).toEqual(['admitted+echo', 'sent', 'running', 'stopping', 'ended:cancelled', '-', '-']);
    expect(life.reason).toBe('cancelled');
  });

  it('--late-stop: the stopped turn ends only when the next prompt is sent; its boundary is not the next prompt’s end', () => {
    // The first prompt: stopped, never confirmed, ended by the watchdog.
    expect(run(admit(0), accepted(0), started(), STOP, UNCONFIRMED).last).toBe('ended:cancelled');
    // The next one is written at boundary 0; the child first ends the old turn (its turn.completed
    // and prompt_completed reach the hub), then writes prompt_started and answers the send.
    const next = new PromptLife('p2');
    const steps = [
      admit(0),
      ended(T, P),
      ready(),
      { type: 'prompt_started', boundary: 1 } as PromptEvent,
      accepted(1),
      started('t2', 'p2'),
      ended('t2', 'p2'),
    ].map((e) => describeStep(next, e));
    expect(steps).toEqual(['admitted+echo', '-', '-', 'admitted', 'sent', 'running', 'ended:completed']);
    // Without prompt_started the old boundary would have ended it at the answer: that is what it guards.
    const unguarded = new PromptLife('p2');
    expect([admit(0), ready(), accepted(1)].map((e) => describeStep(unguarded, e))).toEqual(['admitted+echo', '-', 'ended:completed']);
  });

  it('--silent-stop: no end and no boundary; the watchdog ends it, the next prompt is refused busy and waits', () => {
    expect(run(admit(0), accepted(0), started(), STOP, UNCONFIRMED).last).toBe('ended:cancelled');
    const next = new PromptLife('p2');
    const steps = [admit(0), { type: 'busy', boundary: 0 } as PromptEvent, admit(0), accepted(0), started('t2', 'p2')].map((e) =>
      describeStep(next, e),
    );
    expect(steps).toEqual(['admitted+echo', 'queued+await_boundary', 'admitted', 'sent', 'running']);
  });

  it('a stop before the send was answered: the stop goes out with the answer, even after the watchdog ended it', () => {
    expect(run(admit(), STOP, accepted()).steps).toEqual(['admitted+echo', 'stopping', 'stopping+send_stop']);
    expect(run(admit(), STOP, UNCONFIRMED, accepted()).steps).toEqual([
      'admitted+echo',
      'stopping',
      'ended:cancelled',
      'ended:cancelled+send_stop',
    ]);
  });

  it('queued behind a background turn: the early prompt_completed is not its end, its own turn is', () => {
    const { steps, life } = run(admit(), accepted(0, false, true), ready(false, true), started('t2', P), ended('t2', P));
    expect(steps).toEqual(['admitted+echo', 'sent', 'sent+waits_own_turn', 'running', 'ended:completed']);
    expect(life.reason).toBe('completed');
  });

  it('steerQueued says the child queued it: the boundary waits for its own turn even with no background turn seen', () => {
    const r = run(admit(), { type: 'steer_queued', inputId: P }, accepted(), ready());
    expect(r.steps).toEqual(['admitted+echo', 'admitted', 'sent', 'sent+waits_own_turn']);
  });

  it('a prompt_failed boundary ends even a prompt the child queued (nothing more will come of it)', () => {
    expect(run(admit(), { type: 'steer_queued', inputId: P }, accepted(), ready(true)).last).toBe('ended:failed');
  });

  it('queued behind a background turn that is already known at the answer: a boundary in flight does not end it', () => {
    expect(run(admit(0), accepted(1, false, true)).last).toBe('sent');
  });

  it('the backend lost: a queued and a running prompt both end lost; a closing hub ends them closed', () => {
    expect(run({ type: 'lost' }).last).toBe('ended:lost');
    expect(run(admit(), accepted(), started(), { type: 'lost' }).last).toBe('ended:lost');
    expect(run(admit(), { type: 'close' }).last).toBe('ended:closed');
  });
});
