import { newId, type BackgroundTask, type SessionRuntime } from './session-runtime.js';
import type { SimulatorCore } from './simulator-core.js';
import { startTurn } from './turn/turn-runner.js';

/** Emits one background-task `session.updated` event (§5.5.9: keys `taskId` + `status`, ISO dates). */
export function emitTask(rt: SessionRuntime, task: BackgroundTask): void {
  rt.emit('session.updated', { ...task });
}

/**
 * A background Bash task: running → output → completed over ~2 s (scaled by
 * `--turn-delay-scale`), then a follow-up turn with `inputSource:"background_task"` (§5.5.1).
 */
export function startBashTask(sim: SimulatorCore, rt: SessionRuntime, toolCallId: string, command: string): BackgroundTask {
  const task = launchBashTask(rt, toolCallId, command);
  const scale = sim.options.turnDelayScale;
  const timers: NodeJS.Timeout[] = [];
  timers.push(
    setTimeout(() => {
      task.stdoutTail = 'building… 50%\n';
      emitTask(rt, task);
    }, 700 * scale),
  );
  timers.push(
    setTimeout(() => {
      task.status = 'completed';
      task.completedAt = new Date().toISOString();
      task.outputTail = 'building… 50%\nbuilding… 100%\nBuild finished in 2.0s\n';
      task.stdoutTail = task.outputTail;
      rt.backgroundTimers.delete(task.taskId);
      emitTask(rt, task);
      const notice = `<task-notification>\n<task-id>${task.taskId}</task-id>\n<status>completed</status>\n<summary>Background command "${command}" completed (exit code 0)</summary>\n</task-notification>`;
      void startTurn(sim, rt, {
        text: notice,
        origin: 'background',
        inputSource: 'background_task',
        inputVisibility: 'model-only',
        behaviour: 'background-followup',
      });
    }, 2000 * scale),
  );
  rt.backgroundTimers.set(task.taskId, timers);
  return task;
}

const ESC = '\u001b[';
/** One line of the watch task's output, with ANSI colours like a test runner's. */
export function watchLine(n: number): string {
  const file = `test/unit-${String(n).padStart(3, '0')}.test.ts`;
  if (n % 7 === 0) return `${ESC}31m✗${ESC}0m ${file} ${ESC}31mexpected ${n} to be ${n + 1}${ESC}0m\n`;
  if (n % 10 === 0) return `${ESC}33mwarn${ESC}0m ${file} ${ESC}2mslow (${n * 3} ms)${ESC}0m\n`;
  return `${ESC}32m✓${ESC}0m ${file} ${ESC}2m(${(n % 5) + 1} tests)${ESC}0m\n`;
}

/** How much of the watch task's output each update carries (a sliding tail, as the CLI sends). */
const WATCH_TAIL_CHARS = 2_000;

/**
 * A long background Bash task with coloured output (`background` + `watch` in the prompt): a
 * line every 250 ms (scaled) for `lines` lines, then completed — long enough to reload, join
 * late or stop it meanwhile. Each update carries the tail of the output so far (§5.5.9).
 */
export function startWatchTask(sim: SimulatorCore, rt: SessionRuntime, toolCallId: string, command: string, lines = 240): BackgroundTask {
  const task = launchBashTask(rt, toolCallId, command);
  let output = `${ESC}1mwatching ${lines} test files${ESC}0m\n`;
  let n = 0;
  const timer = setInterval(() => {
    n += 1;
    output += watchLine(n);
    const done = n >= lines;
    if (done) {
      output += `${ESC}1;32mdone${ESC}0m ${lines} files\n`;
      clearInterval(timer);
      rt.backgroundTimers.delete(task.taskId);
      task.status = 'completed';
      task.completedAt = new Date().toISOString();
    }
    task.stdoutTail = output.slice(-WATCH_TAIL_CHARS);
    task.outputTail = task.stdoutTail;
    emitTask(rt, task);
  }, 250 * sim.options.turnDelayScale);
  rt.backgroundTimers.set(task.taskId, [timer]);
  return task;
}

/**
 * A quiet long-running background Bash task (`background` + `server` in the prompt), like a dev
 * server: one banner line, then nothing until it is stopped. A client that joins later sees no
 * live update of it, only what the hub kept.
 */
export function startServerTask(sim: SimulatorCore, rt: SessionRuntime, toolCallId: string, command: string): BackgroundTask {
  const task = launchBashTask(rt, toolCallId, command);
  const timer = setTimeout(() => {
    task.stdoutTail = `${ESC}1;32mready${ESC}0m on http://localhost:5173/\n`;
    task.outputTail = task.stdoutTail;
    emitTask(rt, task);
  }, 300 * sim.options.turnDelayScale);
  rt.backgroundTimers.set(task.taskId, [timer]);
  return task;
}

export type CancelOutcome = { ok: true; task: BackgroundTask } | { ok: false; reason: 'not_found' | 'not_running'; task?: BackgroundTask };

/** Cancels a running background task (legacy cancelBackgroundTask, v4 cancelBackgroundWork). */
export function cancelTask(rt: SessionRuntime, taskId: string): CancelOutcome {
  const task = rt.backgroundJobs.get(taskId);
  if (!task) return { ok: false, reason: 'not_found' };
  if (task.status !== 'running') return { ok: false, reason: 'not_running', task };
  for (const t of rt.backgroundTimers.get(taskId) ?? []) clearTimeout(t);
  rt.backgroundTimers.delete(taskId);
  task.status = 'cancelled';
  task.cancelRequestedAt = new Date().toISOString();
  task.completedAt = task.cancelRequestedAt;
  emitTask(rt, task);
  return { ok: true, task };
}

/** A running Bash task, registered on the session and announced as a `session.updated` event (§5.5.1, §5.5.9). */
function launchBashTask(rt: SessionRuntime, toolCallId: string, command: string): BackgroundTask {
  const task: BackgroundTask = {
    taskId: newId('exec'),
    status: 'running',
    toolCallId,
    toolName: 'Bash',
    taskKind: 'bash',
    command,
    description: `Run ${command}`,
    cancellable: true,
    startedAt: new Date().toISOString(),
    pid: 5000 + Math.floor(Math.random() * 1000),
  };
  rt.backgroundJobs.set(task.taskId, task);
  emitTask(rt, task);
  return task;
}
