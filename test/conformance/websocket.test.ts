import { createWebSocketStream } from '@agentclientprotocol/sdk/experimental/ws-client';
import WebSocket from 'ws';
import { conformanceSuite } from '../support/conformance-walk.js';

/** ACP over WebSocket (`GET /acp` upgrade): the conformance walk (test/support/conformance-walk.ts) for every scenario. */
conformanceSuite('WebSocket', async (hub) =>
  createWebSocketStream(hub.wsUrl, { WebSocket: WebSocket as never, headers: { authorization: `Bearer ${hub.adminToken}` } }),
);
