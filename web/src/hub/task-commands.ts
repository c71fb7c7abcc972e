/** Stopping a background task from the terminal panel (CLIENT-PROTOCOL.md `_zcode/cancel_background_task`, operate+). */
import type { CancelBackgroundTaskParams } from '../../../src/zcode-ext/requests.js';
import { ZCODE_REQUEST } from '../../../src/zcode-ext/methods.js';
import { rec } from '../wire.js';
import type { HubClient } from './hub-client.js';

/** Asks the hub to stop the task; true when it was stopped (false: it had already ended). */
export async function stopTask(client: HubClient, sessionId: string, taskId: string): Promise<boolean> {
  const res = await client.conn.request(ZCODE_REQUEST.cancelBackgroundTask, { sessionId, taskId } satisfies CancelBackgroundTaskParams);
  return rec(res)?.['cancelled'] === true;
}
