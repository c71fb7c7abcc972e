/**
 * The scripted conversation of `zcode-hub doctor --probe` (docs/APP-SERVER.md §15): the calls
 * the hub makes, in the order it makes them, through the hub's own typed client — so every
 * answer is read by the schema the hub reads it with — each turned into report rows. Harmless:
 * one scratch session in a temporary workspace, created, prompted, stopped, resumed, listed and
 * deleted. Never throws; a step that cannot run says why.
 */
import { randomUUID } from 'node:crypto';
import { workspaceRef, type AppServer } from '../app-server/client.js';
import { DELIVERY_KIND } from '../domain/sessions/session-open.js';
import { failureRows, presenceRows } from './probe-check.js';
import type { NotificationWatch, SeenNotification } from './probe-events.js';
import type { ProbeRow } from './probe-report.js';

/** A prompt any model answers in a word; the simulator answers it with its plain scenario. */
export const PROBE_PROMPT = 'This is a connectivity check from zcode-hub doctor. Reply with the single word: ok';
/** A prompt that runs long enough to be stopped (`slow` is the simulator's slow scenario). */
export const PROBE_SLOW_PROMPT = 'Count slowly from 1 to 300, one number per line, with no other text.';

export interface ProbeDeps {
  app: AppServer;
  /** The last raw result of a method (for the value a `differs` row quotes). */
  lastRaw: (method: string) => unknown;
  watch: NotificationWatch;
  /** A scratch directory the session is created in. */
  workspace: string;
  stepTimeoutMs: number;
  turnTimeoutMs: number;
  /** What the link knows about the child's exit, for `missing` rows. */
  exitNote: () => string;
  /** True: prompts run; a string: they are skipped, for that reason (`--probe-no-prompt`, no provider). */
  prompt: true | string;
}

const isTerminal = (n: SeenNotification) => n.kind === 'event' && (n.type === 'turn.completed' || n.type === 'turn.failed');
const isBoundary = (n: SeenNotification) => n.kind === 'state' && (n.reason === 'prompt_completed' || n.reason === 'prompt_failed');
const isEvent = (type: string) => (n: SeenNotification) => n.kind === 'event' && n.type === type;

/** Runs the script and returns its rows (notification checks last). */
// biome-ignore lint/complexity/noExcessiveLinesPerFunction: one script read top to bottom: the probe's calls to the child in the order they run, each followed by the rows it yields
export async function runProbe(d: ProbeDeps): Promise<ProbeRow[]> {
  const rows: ProbeRow[] = [];
  // `{value}` on success (a void call succeeds too), undefined once its rows say why not.
  const call = async <T>(
    step: string,
    expectation: string,
    method: string,
    fn: () => Promise<T>,
    into = rows,
  ): Promise<{ value: T } | undefined> => {
    d.watch.phase = step;
    try {
      const value = await fn();
      into.push({ step, expectation, outcome: 'ok' });
      return { value };
    } catch (err) {
      into.push(...failureRows(err, { step, expectation, raw: d.lastRaw(method), limitMs: d.stepTimeoutMs, exitNote: d.exitNote }));
      return undefined;
    }
  };
  const skip = (step: string, expectation: string, detail: string) => rows.push({ step, expectation, outcome: 'skipped', detail });
  const seen = async (step: string, expectation: string, from: number, match: (n: SeenNotification) => boolean) => {
    const n = await d.watch.waitFor(from, match, d.turnTimeoutMs);
    rows.push(
      n
        ? { step, expectation, outcome: 'ok' }
        : {
            step,
            expectation,
            outcome: 'missing',
            detail: `not seen within ${d.turnTimeoutMs} ms (limits.probeTurnTimeoutMs); ${d.exitNote()}`,
          },
    );
    return n;
  };

  const createdCall = await call('session/create', 'answers with a session snapshot the hub reads (§4.1)', 'session/create', () =>
    d.app.createSession({ cwd: d.workspace }),
  );
  const created = createdCall?.value;
  if (!created) {
    skip('(rest)', 'every later step needs the scratch session', 'session/create did not succeed');
    return [...rows, ...d.watch.rows()];
  }
  const raw = d.lastRaw('session/create');
  rows.push(...presenceRows('session/create', raw, ['session.sessionId', 'runtime.eventSeq', 'settings.model.available']));
  const sessionId = created.session.sessionId;
  const models = created.settings.model?.available ?? [];

  const subscribed = await call('session/subscribe', 'answers with the seq and backlog the hub reads (§4.7)', 'session/subscribe', () =>
    d.app.subscribe({ sessionId, deliveryKind: DELIVERY_KIND, afterSeq: 0 }),
  );
  if (subscribed) rows.push(...presenceRows('session/subscribe', d.lastRaw('session/subscribe'), ['eventSeq', 'events']));
  await call('v4/conversation/subscribe', 'accepts a conversation subscription (titles, §5.8)', 'v4/conversation/subscribe', () =>
    d.app.subscribeConversation(sessionId),
  );

  const why = d.prompt !== true ? d.prompt : models.length === 0 ? 'no model is available: configure a provider first' : '';
  if (why) {
    skip('prompt', 'a prompt runs a turn to its end', why);
  } else {
    d.watch.phase = 'prompt';
    const from = d.watch.mark;
    const sent = await call('session/send', 'accepts a prompt (§4.8)', 'session/send', () =>
      d.app.send({ sessionId, content: PROBE_PROMPT, inputId: randomUUID() }, d.stepTimeoutMs),
    );
    if (sent !== undefined) {
      const isStarted = (n: SeenNotification) => n.kind === 'state' && n.reason === 'prompt_started';
      const expectation = 'state.updated prompt_started comes before the send answer (§4.8)';
      if (d.watch.indexOf(from, isStarted) !== -1) rows.push({ step: 'prompt', expectation, outcome: 'ok' });
      else {
        const late = await d.watch.waitFor(from, isStarted, d.turnTimeoutMs);
        rows.push({
          step: 'prompt',
          expectation,
          outcome: late ? 'differs' : 'missing',
          detail: late ? 'seen only after the answer' : `not seen within ${d.turnTimeoutMs} ms (limits.probeTurnTimeoutMs)`,
        });
      }
      await seen('prompt', 'turn.started arrives (§5.5.1)', from, isEvent('turn.started'));
      const end = await seen('prompt', 'the turn ends with turn.completed or turn.failed (§5.5.3)', from, isTerminal);
      if (end?.kind === 'event' && end.type === 'turn.completed' && end.payload['resultType'] !== 'success')
        rows.push({
          step: 'prompt',
          expectation: 'the turn succeeds',
          outcome: 'differs',
          detail: `resultType ${String(end.payload['resultType'])}`,
        });
      if (end?.kind === 'event' && end.type === 'turn.failed')
        rows.push({
          step: 'prompt',
          expectation: 'the turn succeeds',
          outcome: 'differs',
          detail: `turn.failed: ${JSON.stringify(end.payload['error'])}`,
        });
      await seen('prompt', 'state.updated prompt_completed|prompt_failed frees the session (§11.6)', from, isBoundary);
    }
  }

  await call('v4 renameSession', 'acknowledges renameSession (§7.3)', 'v4/command', () =>
    d.app.v4Command(sessionId, 'renameSession', { title: 'zcode-hub doctor probe' }),
  );

  // A stop as the hub stops (src/domain/prompts/stop-turn.ts): v4 stop and session/stop at once (§7.4).
  let running = false;
  const stopFrom = d.watch.mark;
  if (!why) {
    d.watch.phase = 'stop';
    const sent = await call('session/send', 'accepts a second prompt to stop', 'session/send', () =>
      d.app.send({ sessionId, content: PROBE_SLOW_PROMPT, inputId: randomUUID() }, d.stepTimeoutMs),
    );
    running = sent !== undefined && (await seen('stop', 'the second turn starts', stopFrom, isEvent('turn.started'))) !== undefined;
  }
  const stopFacts = running ? 'on a running turn' : 'on an idle session';
  const v4Rows: ProbeRow[] = [];
  const legacyRows: ProbeRow[] = [];
  await Promise.all([
    call('v4 stop', `acknowledges stop ${stopFacts} (§7.4)`, 'v4/command', () => d.app.v4Command(sessionId, 'stop', {}), v4Rows),
    call('session/stop', `answers ${stopFacts} (§4.9)`, 'session/stop', () => d.app.stop(sessionId), legacyRows),
  ]);
  rows.push(...v4Rows, ...legacyRows);
  if (running) {
    const end = await seen('stop', 'the stopped turn ends (§11.7)', stopFrom, (n) => isTerminal(n) || isBoundary(n));
    if (end?.kind === 'event' && end.type === 'turn.completed' && end.payload['resultType'] !== 'cancelled')
      rows.push({
        step: 'stop',
        expectation: 'the stopped turn ends cancelled (§4.9)',
        outcome: 'differs',
        detail: `turn.completed resultType ${String(end.payload['resultType'])}: the stop did not cancel it`,
      });
  }

  await call('session/close', 'unloads the runtime (§4.15)', 'session/close', () => d.app.closeSession(sessionId));
  d.watch.resetSeq();
  const resumed = await call('session/resume', 'answers with the snapshot of the closed session (§4.2)', 'session/resume', () =>
    d.app.resumeSession({ sessionId }),
  );
  if (resumed) rows.push(...presenceRows('session/resume', d.lastRaw('session/resume'), ['session.sessionId', 'runtime.eventSeq']));

  const listed = await call('session/list', 'lists the sessions of a workspace (§4.3)', 'session/list', () =>
    d.app.listSessions({ cwd: d.workspace }),
  );
  if (listed) {
    rows.push(...presenceRows('session/list', d.lastRaw('session/list'), ['sessions']));
    const found = listed.value.some((s) => s.sessionId === sessionId);
    rows.push({
      step: 'session/list',
      expectation: 'the list holds the scratch session',
      outcome: found || why ? (found ? 'ok' : 'skipped') : 'missing',
      ...(found
        ? {}
        : { detail: why ? 'a session with no prompt may be a draft, which is not listed (§4.3)' : `${sessionId} is not listed` }),
    });
  }
  // The read-only workflow queries the settings screens make (§8).
  await call('workflows/list', 'lists the saved workflows of a workspace (§8)', 'workflows/list', () =>
    d.app.workflows.list(workspaceRef(d.workspace)),
  );
  await call('v4 workflowRuns', "lists a session's workflow runs (§2.2)", 'v4/conversation/workflowRuns', () =>
    d.app.workflows.sessionRuns(sessionId, 10),
  );
  const history = await call('session/messages', 'answers with the history (§4.5)', 'session/messages', () =>
    d.app.messages(sessionId, 20),
  );
  if (history && !why)
    rows.push(
      history.value.length >= 2
        ? { step: 'session/messages', expectation: 'the history holds the prompt and its answer', outcome: 'ok' }
        : {
            step: 'session/messages',
            expectation: 'the history holds the prompt and its answer',
            outcome: 'missing',
            detail: `${history.value.length} message(s)`,
          },
    );

  const deleted = await call('v4 deleteSession', 'acknowledges deleteSession (§7.3)', 'v4/command', () =>
    d.app.v4Command(sessionId, 'deleteSession', {}),
  );
  if (deleted) {
    const after = await call('session/list', 'answers after the delete', 'session/list', () => d.app.listSessions({ cwd: d.workspace }));
    if (after)
      rows.push(
        after.value.some((s) => s.sessionId === sessionId)
          ? { step: 'session/list', expectation: 'the deleted session is gone', outcome: 'differs', detail: `${sessionId} is still listed` }
          : { step: 'session/list', expectation: 'the deleted session is gone', outcome: 'ok' },
      );
  }
  return [...rows, ...d.watch.rows()];
}
