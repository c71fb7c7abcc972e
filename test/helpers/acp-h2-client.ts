import http2 from 'node:http2';
import type { InboundMessage } from './acp-ws-client.js';
import { until } from './until.js';

/** One answer read whole over HTTP/2. */
export interface H2Answer {
  status: number;
  headers: http2.IncomingHttpHeaders;
  body: string;
}

/**
 * A raw node:http2 client for tests: one HTTP/2 connection (h2c by prior knowledge on http://,
 * ALPN h2 on https://), every request a stream of it. No fetch, no fallback: if the hub did not
 * speak HTTP/2 the session would fail.
 */
export class H2Connection {
  readonly session: http2.ClientHttp2Session;
  goaway = false;

  constructor(url: string) {
    this.session = http2.connect(url, { rejectUnauthorized: false });
    this.session.on('error', () => undefined);
    this.session.on('goaway', () => (this.goaway = true));
  }

  /** The ALPN protocol of a TLS connection (`h2`), once connected. */
  async alpn(): Promise<string | false | undefined> {
    if (!this.session.connecting) return this.session.alpnProtocol;
    await new Promise((resolve) => this.session.once('connect', resolve));
    return this.session.alpnProtocol;
  }

  /** Sends one request and reads its answer whole. `:authority` is the URL's unless given. */
  request(headers: http2.OutgoingHttpHeaders, body?: string): Promise<H2Answer> {
    return new Promise((resolve, reject) => {
      const stream = this.session.request(headers, { endStream: body === undefined });
      let status = 0;
      let answerHeaders: http2.IncomingHttpHeaders = {};
      let text = '';
      stream.setEncoding('utf8');
      stream.on('response', (h) => {
        answerHeaders = h;
        status = Number(h[':status']);
      });
      stream.on('data', (chunk: string) => (text += chunk));
      stream.on('end', () => resolve({ status, headers: answerHeaders, body: text }));
      stream.on('error', reject);
      if (body !== undefined) stream.end(body);
    });
  }

  close(): void {
    this.session.close();
  }
}

/**
 * The Streamable HTTP ACP client of acp-http-client.ts, over one HTTP/2 connection: the POSTs
 * and the SSE stream are streams of the same connection.
 */
export class AcpH2Client {
  readonly messages: InboundMessage[] = [];
  connectionId: string | undefined;
  streamStatus = 0;
  private nextId = 1;
  private sse: http2.ClientHttp2Stream | undefined;

  constructor(
    readonly h2: H2Connection,
    readonly headers: Record<string, string>,
  ) {}

  post(message: unknown, extra: Record<string, string> = {}): Promise<H2Answer> {
    return this.h2.request(
      {
        ':method': 'POST',
        ':path': '/acp',
        'content-type': 'application/json',
        ...this.headers,
        ...(this.connectionId ? { 'acp-connection-id': this.connectionId } : {}),
        ...extra,
      },
      JSON.stringify(message),
    );
  }

  async initialize(name = 'h2-test'): Promise<Record<string, unknown>> {
    const res = await this.post({
      jsonrpc: '2.0',
      id: this.nextId++,
      method: 'initialize',
      params: { protocolVersion: 1, clientCapabilities: {}, clientInfo: { name, version: '1' } },
    });
    if (res.status !== 200) throw new Error(`initialize: ${res.status} ${res.body}`);
    this.connectionId = String(res.headers['acp-connection-id']);
    return (JSON.parse(res.body) as { result: Record<string, unknown> }).result;
  }

  /** Opens the event stream on the same connection; resolves with its status. */
  openStream(): Promise<number> {
    return new Promise((resolve, reject) => {
      const stream = this.h2.session.request({
        ':method': 'GET',
        ':path': '/acp',
        accept: 'text/event-stream',
        ...this.headers,
        ...(this.connectionId ? { 'acp-connection-id': this.connectionId } : {}),
      });
      this.sse = stream;
      let buffer = '';
      stream.setEncoding('utf8');
      stream.on('response', (h) => {
        this.streamStatus = Number(h[':status']);
        resolve(this.streamStatus);
      });
      stream.on('data', (chunk: string) => {
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
      stream.on('error', reject);
    });
  }

  /** Stops reading the event stream: its flow-control window runs out and the hub's writes back up (a stalled reader). */
  pause(): void {
    this.sse?.pause();
  }

  async request<T = Record<string, unknown>>(method: string, params?: Record<string, unknown>): Promise<T> {
    const id = this.nextId++;
    const sessionId = typeof params?.['sessionId'] === 'string' ? params['sessionId'] : undefined;
    const res = await this.post(
      { jsonrpc: '2.0', id, method, ...(params ? { params } : {}) },
      sessionId ? { 'acp-session-id': sessionId } : {},
    );
    if (res.status !== 202) throw new Error(`${method}: HTTP ${res.status} ${res.body}`);
    const answer = await until(() => this.messages.find((m) => m.id === id && m.method === undefined), `the answer to ${method}`);
    if (answer.error) throw Object.assign(new Error(answer.error.message), { rpc: answer.error });
    return answer.result as T;
  }

  answer(id: string | number, result: unknown, sessionId?: string): Promise<H2Answer> {
    return this.post({ jsonrpc: '2.0', id, result }, sessionId ? { 'acp-session-id': sessionId } : {});
  }

  notifications<T = Record<string, unknown>>(method: string): T[] {
    return this.messages.filter((m) => m.method === method && m.id === undefined).map((m) => m.params as T);
  }

  close(): void {
    this.sse?.close();
  }
}
