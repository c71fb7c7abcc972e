/**
 * Writing a prompt to the child: `session/send` (APP-SERVER.md §4.8) with its own timeout. The
 * child runs requests one at a time in arrival order (§1.6, §11.3): a send written behind a slow
 * `session/create`, `provider/testModelConnectivity` or `workspace/generateText` is answered —
 * and its turn run — only after that request, so the forward timeout would report a send as
 * failed that the child still runs later. The hub waits `sendAnswerTimeoutMs` instead; past it
 * the prompt fails saying the agent may still run it, and the hub never writes it again.
 */
import { AppServerError } from '../../app-server/errors.js';
import type { AppServer } from '../../app-server/client.js';
import { HubError } from '../../errors.js';
import type { QueuedPrompt } from './prompt-queue.js';
import { toSendParams } from './send-params.js';

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
