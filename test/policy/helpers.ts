import { expect } from 'vitest';
import type { AcpWsClient } from '../helpers/acp-ws-client.js';
import type { HubHarness } from '../helpers/hub-harness.js';

/** Replaces the hub's approval rules through the real REST route (admin token). */
export async function setRules(hub: HubHarness, rules: unknown[]): Promise<void> {
  const res = await hub.api('/api/policy', {
    method: 'PUT',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ rules }),
  });
  expect(res.status, await res.clone().text()).toBe(200);
}

/** A new session owned by `owner`, loaded by every other client. */
export async function sharedSession(hub: HubHarness, owner: AcpWsClient, others: AcpWsClient[]): Promise<string> {
  const { sessionId } = await owner.request<{ sessionId: string }>('session/new', { cwd: hub.workspace, mcpServers: [] });
  for (const c of others) await c.request('session/load', { sessionId, cwd: hub.workspace, mcpServers: [] });
  return sessionId;
}

/** Sends a prompt; the promise settles when the turn ends. */
export function prompt(c: AcpWsClient, sessionId: string, text: string): Promise<{ stopReason: string }> {
  return c.request<{ stopReason: string }>('session/prompt', { sessionId, prompt: [{ type: 'text', text }] });
}

export interface Resolved {
  sessionId: string;
  interactionId: string;
  state: string;
  outcome?: unknown;
  resolvedBy?: { name: string; person?: string; rule?: string };
  rule?: { id: string; description?: string; decision: string };
}

/** The next `_zcode/interaction_resolved` of a session a client sees. */
export function resolvedOn(c: AcpWsClient, sessionId: string, after = 0): Promise<Resolved> {
  return c.waitForNotification<Resolved>('_zcode/interaction_resolved', (p) => p.sessionId === sessionId, undefined, after);
}
