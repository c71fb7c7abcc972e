import { client, type RequestPermissionRequest, type SessionNotification } from '@agentclientprotocol/sdk';
import { createHttpStream } from '@agentclientprotocol/sdk/experimental/http-client';
import type { HubHarness } from './hub-harness.js';

/** The official ACP SDK client on its own Streamable HTTP transport, as the tests drive it. */
export interface SdkHttpClient {
  updates: SessionNotification[];
  permissions: RequestPermissionRequest[];
  agent: ReturnType<ReturnType<typeof client>['connect']>['agent'];
  close(): void;
}

/**
 * `createHttpStream` to the hub's `/acp` with the admin token, allowing every permission it is
 * asked (`allow_once`). `fetch` is what carries it (Node's global fetch, HTTP/1.1, by default).
 */
export function connectSdkOverHttp(hub: HubHarness, fetch?: typeof globalThis.fetch): SdkHttpClient {
  const updates: SessionNotification[] = [];
  const permissions: RequestPermissionRequest[] = [];
  const stream = createHttpStream(`${hub.url}/acp`, {
    headers: { authorization: `Bearer ${hub.adminToken}` },
    ...(fetch === undefined ? {} : { fetch }),
  });
  const app = client()
    .onNotification('session/update', ({ params }) => {
      updates.push(params);
    })
    .onRequest('session/request_permission', ({ params }) => {
      permissions.push(params);
      const optionId = params.options.find((o) => o.kind === 'allow_once')?.optionId;
      return optionId ? { outcome: { outcome: 'selected', optionId } } : { outcome: { outcome: 'cancelled' } };
    });
  const conn = app.connect(stream);
  return { updates, permissions, agent: conn.agent, close: () => conn.close() };
}
