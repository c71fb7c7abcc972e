/**
 * A session's Turn (src/domain/prompts/turn.ts) on its own, in milliseconds: every named transition from
 * every state, that each publishes exactly once, what a failed or interrupted end announces, and
 * the live tail a joiner reads from the journal (opened once, closed by a normal end, kept by an
 * interruption, dropped when trimmed), with what the running-turn record hears of it.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { TurnEnded } from '../../src/acp/turn-ended.js';
import { connectionAuthor } from '../../src/domain/people/author.js';
import { Turn, type Author, type TailHooks, type TurnState } from '../../src/domain/prompts/turn.js';

const author = (name: string): Author =>
  connectionAuthor({ clientId: `c-${name}`, identity: { tokenId: `t-${name}`, name, person: name, scope: 'operate' } });
const ALICE = author('alice');
const BOB = author('bob');
const ERROR = { message: 'the agent went away', type: 'backend_restarting' };

interface Rig {
  turn: Turn;
  /** How many times the state was published. */
  published: () => number;
  announced: TurnEnded[];
  /** What the running-turn record heard, in order. */
  record: string[];
  /** How each end treated the turn's open tool calls (`close`, `forget`) and its marker, in order. */
  ends: string[];
}

function makeTurn(): Rig {
  let published = 0;
  const announced: TurnEnded[] = [];
  const record: string[] = [];
  const ends: string[] = [];
  const hooks: TailHooks = {
    opened: (at) => record.push(`opened@${at}`),
    closed: () => record.push('closed'),
    running: (active) => record.push(active ? 'running' : 'stopped'),
  };
  const turn = new Turn(
    () => {
      published += 1;
    },
    (ended) => {
      announced.push(ended);
      ends.push('marker');
    },
    hooks,
    () => undefined,
    (close) => ends.push(close ? 'close' : 'forget'),
  );
  return { turn, published: () => published, announced, record, ends };
}

/** A turn brought to `state` by its own transitions. */
function turnIn(state: TurnState): Rig {
  const rig = makeTurn();
  if (state !== 'idle') rig.turn.start(ALICE);
  if (state === 'awaiting_input') rig.turn.awaitInput();
  if (state === 'stopping') rig.turn.requestStop(true);
  expect(rig.turn.state).toBe(state);
  return rig;
}

const STATES: TurnState[] = ['idle', 'running', 'awaiting_input', 'stopping'];

beforeEach(() => {
  vi.useFakeTimers({ toFake: ['Date'] });
  vi.setSystemTime(1_000);
});

afterEach(() => {
  vi.useRealTimers();
});

describe('Turn: every transition from every state', () => {
  // What each transition leads to from each state (promptRunning false unless said).
  const TABLE: Record<string, { run: (t: Turn) => void; to: Record<TurnState, TurnState> }> = {
    start: { run: (t) => t.start(BOB), to: { idle: 'running', running: 'running', awaiting_input: 'running', stopping: 'running' } },
    bind: { run: (t) => t.bind('t9'), to: { idle: 'running', running: 'running', awaiting_input: 'awaiting_input', stopping: 'stopping' } },
    awaitInput: {
      run: (t) => t.awaitInput(),
      to: { idle: 'awaiting_input', running: 'awaiting_input', awaiting_input: 'awaiting_input', stopping: 'stopping' },
    },
    'inputSettled(0 left, prompt running)': {
      run: (t) => t.inputSettled(0, true),
      to: { idle: 'idle', running: 'running', awaiting_input: 'running', stopping: 'stopping' },
    },
    'inputSettled(1 left)': {
      run: (t) => t.inputSettled(1, true),
      to: { idle: 'idle', running: 'running', awaiting_input: 'awaiting_input', stopping: 'stopping' },
    },
    'requestStop(prompt running)': {
      run: (t) => t.requestStop(true),
      to: { idle: 'stopping', running: 'stopping', awaiting_input: 'stopping', stopping: 'stopping' },
    },
    'requestStop(nothing running)': {
      run: (t) => t.requestStop(false),
      to: { idle: 'idle', running: 'stopping', awaiting_input: 'stopping', stopping: 'stopping' },
    },
    sendUndone: { run: (t) => t.sendUndone(), to: { idle: 'idle', running: 'idle', awaiting_input: 'idle', stopping: 'idle' } },
    end: { run: (t) => t.end(), to: { idle: 'idle', running: 'idle', awaiting_input: 'idle', stopping: 'idle' } },
    fail: { run: (t) => t.fail({ error: ERROR }), to: { idle: 'idle', running: 'idle', awaiting_input: 'idle', stopping: 'idle' } },
    interrupt: {
      run: (t) => t.interrupt({ error: ERROR }),
      to: { idle: 'idle', running: 'idle', awaiting_input: 'idle', stopping: 'idle' },
    },
    changed: { run: (t) => t.changed(), to: { idle: 'idle', running: 'running', awaiting_input: 'awaiting_input', stopping: 'stopping' } },
  };
  for (const [name, { run, to }] of Object.entries(TABLE))
    for (const from of STATES)
      it(`${from} --${name}--> ${to[from]}, published once`, () => {
        const rig = turnIn(from);
        const before = rig.published();
        run(rig.turn);
        expect(rig.turn.state).toBe(to[from]);
        expect(rig.turn.active).toBe(to[from] !== 'idle');
        expect(rig.published() - before).toBe(1);
      });

  it('a quiet bind (a snapshot folded before anyone attached) publishes nothing', () => {
    const rig = makeTurn();
    rig.turn.bind('t1', true);
    expect(rig.turn.state).toBe('running');
    expect(rig.turn.turnId).toBe('t1');
    expect(rig.published()).toBe(0);
  });

  it('requestStop says whether there was anything to stop', () => {
    expect(turnIn('idle').turn.requestStop(false)).toBe(false);
    expect(turnIn('idle').turn.requestStop(true)).toBe(true);
    expect(turnIn('running').turn.requestStop(false)).toBe(true);
  });

  it('an interaction settled with no prompt running goes back to running only while the child’s turn is bound', () => {
    const bound = makeTurn();
    bound.turn.bind('t1');
    bound.turn.awaitInput();
    bound.turn.inputSettled(0, false);
    expect(bound.turn.state).toBe('running');

    const unbound = turnIn('awaiting_input');
    unbound.turn.inputSettled(0, false);
    expect(unbound.turn.state).toBe('idle');
  });
});

describe('Turn: who and which turn', () => {
  it('start names the prompter and forgets an earlier turn id; bind names the child’s turn', () => {
    const { turn } = makeTurn();
    turn.bind('t0');
    turn.start(ALICE);
    expect(turn.by).toEqual(ALICE);
    expect(turn.turnId).toBeUndefined();
    turn.bind('t1');
    expect(turn.turnId).toBe('t1');
    expect(turn.by).toEqual(ALICE);
  });

  it('every end forgets the prompter and the turn id', () => {
    for (const finish of [(t: Turn) => t.end(), (t: Turn) => t.fail({ error: ERROR }), (t: Turn) => t.interrupt({ error: ERROR })]) {
      const { turn } = turnIn('running');
      turn.bind('t1');
      finish(turn);
      expect([turn.state, turn.by, turn.turnId]).toEqual(['idle', undefined, undefined]);
    }
  });
});

describe('Turn: a send that did not become a turn', () => {
  it('goes back to the child’s own turn that was running when the prompt was handed over, its tail still open', () => {
    const rig = makeTurn();
    rig.turn.openTail(4);
    rig.turn.bind('t0');
    rig.turn.start(ALICE);
    const before = rig.published();
    rig.turn.sendUndone();
    expect([rig.turn.state, rig.turn.turnId, rig.turn.by]).toEqual(['running', 't0', undefined]);
    expect(rig.published() - before).toBe(1);
    expect(rig.turn.tail?.startSeq).toBe(4);
    expect(rig.record).toEqual(['opened@1000', 'running', 'running']);
    // Once only: a second undo has nothing to go back to but the bound turn.
    rig.turn.sendUndone();
    expect(rig.turn.turnId).toBe('t0');
  });

  it('keeps a turn bound since the send; is idle when no turn ran before it', () => {
    const since = makeTurn();
    since.turn.bind('t0');
    since.turn.start(ALICE);
    since.turn.bind('t1');
    since.turn.sendUndone();
    expect([since.turn.state, since.turn.turnId, since.turn.by]).toEqual(['running', 't1', ALICE]);

    const none = turnIn('running');
    none.turn.sendUndone();
    expect([none.turn.state, none.turn.turnId, none.turn.by]).toEqual(['idle', undefined, undefined]);
  });

  it('an end in between forgets the turn it would go back to', () => {
    const rig = makeTurn();
    rig.turn.bind('t0');
    rig.turn.start(ALICE);
    rig.turn.end();
    rig.turn.start(BOB);
    rig.turn.sendUndone();
    expect(rig.turn.state).toBe('idle');
  });
});

describe('Turn: failed and interrupted ends are announced once, with what they were', () => {
  it('fail announces the bound turn, the prompt and its prompter', () => {
    const rig = turnIn('running');
    rig.turn.bind('t1');
    rig.turn.fail({ error: ERROR, promptId: 'p1' });
    expect(rig.announced).toEqual([{ outcome: 'failed', turnId: 't1', promptId: 'p1', promptedBy: ALICE, error: ERROR }]);
  });

  it('an end naming its turn wins over the bound one; an unknown turn and prompter are left out', () => {
    const named = turnIn('running');
    named.turn.bind('t1');
    named.turn.interrupt({ error: ERROR, turnId: 't0' });
    expect(named.announced).toEqual([{ outcome: 'interrupted', turnId: 't0', promptedBy: ALICE, error: ERROR }]);

    const bare = makeTurn();
    bare.turn.fail({ error: ERROR });
    expect(bare.announced).toEqual([{ outcome: 'failed', error: ERROR }]);
  });

  it('a normal end and a stop announce nothing', () => {
    const rig = turnIn('running');
    rig.turn.requestStop(true);
    rig.turn.end();
    expect(rig.announced).toEqual([]);
  });
});

describe('Turn: every end is settled once, after the turn is idle', () => {
  // The session list's preview is written on `settled`: a completed turn announces nothing, so
  // a hook on `announce` alone would leave a finished turn's last message unwritten.
  for (const how of ['end', 'fail', 'interrupt'] as const) {
    it(`${how}: settled runs once, with the state already idle`, () => {
      const seen: TurnState[] = [];
      const turn: Turn = new Turn(
        () => undefined,
        () => undefined,
        undefined,
        () => seen.push(turn.state),
      );
      turn.start(ALICE);
      turn.bind('turn-1', false);
      if (how === 'end') turn.end();
      else turn[how]({ error: ERROR });
      expect(seen).toEqual(['idle']);
    });
  }
});

describe('Turn: the live tail', () => {
  it('opens once at the first update; a later open keeps the start', () => {
    const rig = makeTurn();
    rig.turn.openTail(5);
    vi.setSystemTime(2_000);
    rig.turn.openTail(9);
    expect(rig.turn.tail).toEqual({ startSeq: 5, startedAt: 1_000, kept: false });
    expect(rig.record).toEqual(['opened@1000']);
  });

  it('a normal end or a failure closes it: history has the turn now', () => {
    for (const finish of [(t: Turn) => t.end(), (t: Turn) => t.fail({ error: ERROR })]) {
      const rig = makeTurn();
      rig.turn.openTail(1);
      rig.turn.start(ALICE);
      finish(rig.turn);
      expect(rig.turn.tail).toBeUndefined();
      expect(rig.record).toEqual(['opened@1000', 'running', 'closed', 'stopped']);
    }
  });

  it('an interruption keeps it (the agent never stored what it said); a later turn’s end does not close it, a trim does', () => {
    const rig = makeTurn();
    rig.turn.openTail(3);
    rig.turn.start(ALICE);
    rig.turn.interrupt({ error: ERROR });
    expect(rig.turn.tail).toEqual({ startSeq: 3, startedAt: 1_000, kept: true });
    expect(rig.record).toEqual(['opened@1000', 'running', 'stopped']);

    rig.turn.openTail(10);
    rig.turn.start(BOB);
    rig.turn.end();
    expect(rig.turn.tail?.startSeq).toBe(3);

    rig.turn.dropTail();
    expect(rig.turn.tail).toBeUndefined();
    rig.turn.dropTail();
    expect(rig.record).toEqual(['opened@1000', 'running', 'stopped', 'running', 'stopped', 'closed']);
  });

  it('a tail restored from disk is kept like an interrupted one', () => {
    const rig = makeTurn();
    rig.turn.restoreTail({ startSeq: 7, startedAt: 500, kept: false });
    rig.turn.end();
    expect(rig.turn.tail).toEqual({ startSeq: 7, startedAt: 500, kept: true });
  });

  it('the record hears `running` on start and bind, and `stopped` only when a turn really was active', () => {
    const rig = makeTurn();
    rig.turn.end();
    rig.turn.bind('t1');
    rig.turn.bind('t1');
    rig.turn.end();
    expect(rig.record).toEqual(['running', 'stopped']);
  });

  it('closes the open tool calls before the marker of a failed or interrupted turn, and at the end of a stopped one; a normal end leaves them to the agent', () => {
    for (const state of STATES.filter((s) => s !== 'idle')) {
      const failed = turnIn(state);
      failed.turn.fail({ error: ERROR });
      const cut = turnIn(state);
      cut.turn.interrupt({ error: ERROR });
      const ended = turnIn(state);
      ended.turn.end();
      expect([state, failed.ends, cut.ends, ended.ends]).toEqual([
        state,
        ['close', 'marker'],
        ['close', 'marker'],
        [state === 'stopping' ? 'close' : 'forget'],
      ]);
    }
  });

  it('works without a record (tests and sessions that need no disk)', () => {
    let published = 0;
    const turn = new Turn(
      () => {
        published += 1;
      },
      () => undefined,
    );
    turn.openTail(1);
    turn.start(ALICE);
    turn.interrupt({ error: ERROR });
    turn.dropTail();
    expect([turn.state, turn.tail, published]).toEqual(['idle', undefined, 2]);
  });
});
