/**
 * Writing a prompt to the child: `session/send` (APP-SERVER.md §4.8) with its own timeout. The
 * child runs requests one at a time in arrival order (§1.6, §11.3): a send written behind a slow
 * `session/create`, `provider/testModelConnectivity` or `workspace/generateText` is answered —
 * and its turn run — only after that request, so the forward timeout would report a send as
 * failed that the child still runs later. The hub waits `sendAnswerTimeoutMs` instead; past it
 * the prompt fails saying the agent may still run it, and the hub never writes it again.
 */
import { AppServerError } from '../app-server/errors.js';
import type { AppServer } from '../app-server/client.js';
import { HubError } from '../errors.js';
import type { QueuedPrompt } from './prompt-queue.js';
import { toSendParams } from './send-params.js';

/** Per-prompt bookkeeping of the prompt flow that the queue does not need to know. */
export interface SendState {
  /** Ready boundaries seen (per session) when the send was written. */
  boundaryAtSend: number;
  accepted: boolean;
  echoed: boolean;
  /**
   * The child queued the input behind a turn that does not hold the lock (a background-task
   * turn, §4.8 rule 4): its early `prompt_completed` is not this prompt's end — its own turn is.
   */
  queuedInChild: boolean;
  /** Cancelled before the child answered the send: its turn is stopped as soon as it is taken. */
  stopOnAccept?: boolean;
}

/** `session/send` of `prompt`; a timeout becomes an error that says the prompt may still run. */
export async function sendInput(app: AppServer, timeoutMs: number, sessionId: string, prompt: QueuedPrompt): Promise<void> {
  try {
    await app.send(toSendParams(sessionId, prompt), timeoutMs);
  } catch (err) {
    if (!(err instanceof AppServerError && err.fault.kind === 'failure' && err.fault.failure === 'timeout')) throw err;
    const message = `The agent has not taken this prompt within ${Math.round(timeoutMs / 1000)} s: it is busy with an earlier request and may still run it later — wait for it before sending it again`;
    throw new HubError('HUB_ERR_BACKEND_TIMEOUT', message, { promptId: prompt.promptId });
  }
}
