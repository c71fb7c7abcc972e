/** Stopping a background task from the terminal panel (CLIENT-PROTOCOL.md `_zcode/cancel_background_task`, operate+). */
import { ZCODE_REQUEST } from '../../../src/zcode-ext/methods.js';
import type { HubClient } from './hub-client.js';

/** Asks the hub to stop the task; true when it was stopped (false: it had already ended). */
export async function stopTask(client: HubClient, sessionId: string, taskId: string): Promise<boolean> {
  const res = await client.conn.call(ZCODE_REQUEST.cancelBackgroundTask, { sessionId, taskId });
  return res.cancelled;
}
