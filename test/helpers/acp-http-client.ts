import http from 'node:http';
import type { InboundMessage } from './acp-ws-client.js';
import { until } from './until.js';

/**
 * A plain Streamable HTTP ACP client for tests (docs/CLIENT-PROTOCOL.md): `fetch` POSTs and one
 * SSE GET read with node:http, every message kept in arrival order. No SDK, no validation: tests
 * see exactly what the hub sent, and can pause the stream to play a stalled reader.
 */
export class AcpHttpClient {
  readonly messages: InboundMessage[] = [];
  connectionId: string | undefined;
  private nextId = 1;
  private stream: http.IncomingMessage | undefined;
  private req: http.ClientRequest | undefined;
  streamEnded = false;
  /** Raw SSE text received (comments included). */
  raw = '';

  constructor(
    readonly url: string,
    readonly headers: Record<string, string>,
  ) {}

  /** POSTs one message; returns the HTTP response. */
  post(message: unknown, extra: Record<string, string> = {}): Promise<Response> {
    return fetch(`${this.url}/acp`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        ...this.headers,
        ...(this.connectionId ? { 'acp-connection-id': this.connectionId } : {}),
        ...extra,
      },
      body: JSON.stringify(message),
    });
  }

  /** POSTs initialize; keeps the connection id; returns the result. */
  async initialize(name = 'http-test'): Promise<Record<string, unknown>> {
    const res = await this.post({
      jsonrpc: '2.0',
      id: this.nextId++,
      method: 'initialize',
      params: { protocolVersion: 1, clientCapabilities: {}, clientInfo: { name, version: '1' } },
    });
    if (res.status !== 200) throw new Error(`initialize: ${res.status} ${await res.text()}`);
    this.connectionId = res.headers.get('acp-connection-id') ?? undefined;
    const body = (await res.json()) as { result: Record<string, unknown> };
    return body.result;
  }

  /** Opens the connection's event stream (resolves once the headers arrived). */
  openStream(extra: Record<string, string> = {}): Promise<number> {
    return new Promise((resolve, reject) => {
      const req = http.get(
        `${this.url}/acp`,
        {
          headers: {
            accept: 'text/event-stream',
            ...this.headers,
            ...(this.connectionId ? { 'acp-connection-id': this.connectionId } : {}),
            ...extra,
          },
        },
        (res) => {
          this.stream = res;
          let buffer = '';
          res.setEncoding('utf8');
          res.on('data', (chunk: string) => {
            this.raw += chunk;
            buffer += chunk;
            let cut: number;
            while ((cut = buffer.indexOf('\n\n')) !== -1) {
              const event = buffer.slice(0, cut);
              buffer = buffer.slice(cut + 2);
              const data = event
                .split('\n')
                .filter((l) => l.startsWith('data: '))
                .map((l) => l.slice(6))
                .join('\n');
              if (data) this.messages.push(JSON.parse(data) as InboundMessage);
            }
          });
          res.on('end', () => (this.streamEnded = true));
          res.on('close', () => (this.streamEnded = true));
          resolve(res.statusCode ?? 0);
        },
      );
      this.req = req;
      req.on('error', (err) => {
        this.streamEnded = true;
        reject(err);
      });
    });
  }

  /** Stops reading the stream: the hub's writes back up (a stalled reader). */
  pause(): void {
    this.stream?.pause();
  }

  /** Sends a request and waits for its answer on the stream. */
  async request<T = Record<string, unknown>>(method: string, params?: Record<string, unknown>): Promise<T> {
    const id = this.nextId++;
    const sessionId = typeof params?.['sessionId'] === 'string' ? params['sessionId'] : undefined;
    const res = await this.post(
      { jsonrpc: '2.0', id, method, ...(params ? { params } : {}) },
      sessionId ? { 'acp-session-id': sessionId } : {},
    );
    if (res.status !== 202) throw new Error(`${method}: HTTP ${res.status} ${await res.text()}`);
    const answer = await until(() => this.messages.find((m) => m.id === id && m.method === undefined), `the answer to ${method}`);
    if (answer.error) throw Object.assign(new Error(answer.error.message), { rpc: answer.error });
    return answer.result as T;
  }

  /** Answers a hub → client request. */
  answer(id: string | number, result: unknown, sessionId?: string): Promise<Response> {
    return this.post({ jsonrpc: '2.0', id, result }, sessionId ? { 'acp-session-id': sessionId } : {});
  }

  notifications<T = Record<string, unknown>>(method: string): T[] {
    return this.messages.filter((m) => m.method === method && m.id === undefined).map((m) => m.params as T);
  }

  /** Ends the stream from this side. */
  close(): void {
    this.req?.destroy();
  }
}
