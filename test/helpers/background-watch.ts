/**
 * The simulator's `background watch` task seen from an ACP client (its card's updates, the output
 * it streamed live), for the suites about kept task output.
 */
import type { AcpWsClient } from './acp-ws-client.js';

/** A `session/update` notification about a task card, as far as these suites read it. */
export interface TaskUpdate {
  sessionId: string;
  update: {
    sessionUpdate: string;
    toolCallId?: string;
    status?: string;
    _meta?: {
      terminal_output?: { data?: string };
      zcode?: { outputText?: string; outputTrimmed?: boolean };
      backgroundTask?: { taskId?: string; status?: string };
    };
  };
  _meta?: { zcode?: { replay?: boolean } };
}

/** Every `session/update` a client got for `sessionId`. */
export function sessionUpdates(c: AcpWsClient, sessionId: string): TaskUpdate[] {
  return c.notifications<TaskUpdate>('session/update').filter((u) => u.sessionId === sessionId);
}

/** The terminal output of `card` a client received live, joined. */
export function liveOutput(list: TaskUpdate[], card: string): string {
  return list
    .filter((u) => u.update.toolCallId === card && u._meta?.zcode?.replay !== true)
    .map((u) => u.update._meta?.terminal_output?.data ?? '')
    .join('');
}

/** Prompts the watch task and waits for its card; `known` holds the cards of earlier tasks (one may still stream). */
export async function startWatch(c: AcpWsClient, sessionId: string, known: Set<string>): Promise<{ card: string; taskId: string }> {
  const skip = c.notifications('session/update').length;
  await c.request('session/prompt', { sessionId, prompt: [{ type: 'text', text: 'run the background watch of the tests' }] });
  const first = await c.waitForNotification<TaskUpdate>(
    'session/update',
    (u) => u.sessionId === sessionId && u.update._meta?.backgroundTask?.taskId !== undefined && !known.has(u.update.toolCallId ?? ''),
    20_000,
    skip,
  );
  const card = first.update.toolCallId as string;
  known.add(card);
  return { card, taskId: first.update._meta?.backgroundTask?.taskId as string };
}
