/** The session commands the composer's `/` runs over a hub connection (CLIENT-PROTOCOL.md `_zcode/*`). */
import { ZCODE_REQUEST } from '../../../src/zcode-ext/methods.js';
import { str } from '../wire.js';
import type { HubClient } from './hub-client.js';

/** Compacts the session's context now (`_zcode/compact`); the hub runs it as a background turn. */
export async function compactSession(client: HubClient, sessionId: string, instructions?: string): Promise<void> {
  await client.conn.call(ZCODE_REQUEST.compact, { sessionId, ...(instructions ? { instructions } : {}) });
}

/** Sets, shows, pauses, resumes or clears the session's goal (`_zcode/goal`); answers the agent's reply. */
export async function goalSession(client: HubClient, sessionId: string, action: string, objective?: string): Promise<string> {
  const res = await client.conn.call(ZCODE_REQUEST.goal, { sessionId, action, ...(objective ? { objective } : {}) });
  return str(res.response) ?? '';
}
