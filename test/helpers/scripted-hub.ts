/**
 * A scripted JSON-RPC WebSocket server on port 0 standing in for the hub's `/acp` in the web
 * app's connection tests: it records every frame it receives and lets the test answer each one,
 * so a test decides what the "hub" answers and when.
 */
import type { AddressInfo } from 'node:net';
import { WebSocketServer, type WebSocket as ServerSocket } from 'ws';
import { until } from './until.js';

export interface Frame {
  id?: number | string;
  method?: string;
  params?: unknown;
  result?: unknown;
  error?: unknown;
}

/** A scripted hub: records every frame it receives and lets the test answer each one. */
export class ScriptedHub {
  readonly server: WebSocketServer;
  readonly frames: Frame[] = [];
  readonly sockets: ServerSocket[] = [];
  constructor() {
    this.server = new WebSocketServer({ host: '127.0.0.1', port: 0 });
    this.server.on('connection', (ws) => {
      this.sockets.push(ws);
      ws.on('message', (data) => this.frames.push(JSON.parse(String(data)) as Frame));
    });
  }
  get url(): string {
    return `ws://127.0.0.1:${(this.server.address() as AddressInfo).port}/acp`;
  }
  /** The socket the client holds now. */
  get socket(): ServerSocket {
    const ws = this.sockets.at(-1);
    if (!ws) throw new Error('no client connected');
    return ws;
  }
  send(msg: unknown): void {
    this.socket.send(typeof msg === 'string' ? msg : JSON.stringify(msg));
  }
  /** Waits for the client's request of `method` that is not answered yet. */
  request(method: string, skip = 0): Promise<Frame> {
    return until(() => this.frames.filter((f) => f.method === method && f.id !== undefined)[skip], `a ${method} request`);
  }
  close(): Promise<void> {
    for (const ws of this.sockets) ws.terminate();
    return new Promise((resolve) => this.server.close(() => resolve()));
  }
}

/** A `session/request_permission` the hub sends (id `id`) for the interaction `interactionId` of `sessionId`: Run ls, one option, Allow. */
export function permissionAsk(id: string, sessionId: string, interactionId: string): Frame & { jsonrpc: '2.0' } {
  return {
    jsonrpc: '2.0',
    id,
    method: 'session/request_permission',
    params: {
      sessionId,
      toolCall: { toolCallId: 'tc1', title: 'Run ls' },
      options: [{ optionId: 'allow', name: 'Allow', kind: 'allow_once' }],
      _meta: { zcode: { interactionId } },
    },
  };
}
