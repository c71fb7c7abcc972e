import type { InboundMessage } from './acp-ws-client.js';
import { until } from './until.js';

/** What the base needs of one POST answer, whichever HTTP carried it. */
export interface PostReply {
  status: number;
  /** The `Acp-Connection-Id` header, when the answer has one. */
  connectionId: string | undefined;
  body: string;
}

/**
 * The JSON-RPC-over-POST client of ACP's Streamable HTTP transport (docs/CLIENT-PROTOCOL.md),
 * whatever carries it: a subclass gives `post` (one message, one HTTP answer), `reply` (that
 * answer's status, connection id and body) and the event stream, and feeds the stream's text to
 * `feed`. Every message the hub sends is kept in arrival order; no SDK, no validation.
 */
export abstract class AcpPostClient<Answer> {
  readonly messages: InboundMessage[] = [];
  connectionId: string | undefined;
  private nextId = 1;
  private sseBuffer = '';

  constructor(readonly headers: Record<string, string>) {}

  /** POSTs one message to `/acp` with `headersFor(extra)`; returns the transport's answer. */
  abstract post(message: unknown, extra?: Record<string, string>): Promise<Answer>;
  /** The status, connection id and body of an answer of `post`. */
  protected abstract reply(answer: Answer): Promise<PostReply>;

  /** The client's headers, the connection id once known, then `extra`. */
  protected headersFor(extra: Record<string, string> = {}): Record<string, string> {
    return { ...this.headers, ...(this.connectionId ? { 'acp-connection-id': this.connectionId } : {}), ...extra };
  }

  /** Text of the event stream, as it arrives: each `data:` event becomes a message. */
  protected feed(chunk: string): void {
    this.sseBuffer += chunk;
    let cut: number;
    while ((cut = this.sseBuffer.indexOf('\n\n')) !== -1) {
      const event = this.sseBuffer.slice(0, cut);
      this.sseBuffer = this.sseBuffer.slice(cut + 2);
      const data = event
        .split('\n')
        .filter((l) => l.startsWith('data: '))
        .map((l) => l.slice(6))
        .join('\n');
      if (data) this.messages.push(JSON.parse(data) as InboundMessage);
    }
  }

  /** POSTs initialize; keeps the connection id; returns the result. */
  async initialize(name = 'http-test'): Promise<Record<string, unknown>> {
    const res = await this.reply(
      await this.post({
        jsonrpc: '2.0',
        id: this.nextId++,
        method: 'initialize',
        params: { protocolVersion: 1, clientCapabilities: {}, clientInfo: { name, version: '1' } },
      }),
    );
    if (res.status !== 200) throw new Error(`initialize: ${res.status} ${res.body}`);
    this.connectionId = res.connectionId;
    return (JSON.parse(res.body) as { result: Record<string, unknown> }).result;
  }

  /** Sends a request and waits for its answer on the stream. */
  async request<T = Record<string, unknown>>(method: string, params?: Record<string, unknown>): Promise<T> {
    const id = this.nextId++;
    const sessionId = typeof params?.['sessionId'] === 'string' ? params['sessionId'] : undefined;
    const res = await this.reply(
      await this.post({ jsonrpc: '2.0', id, method, ...(params ? { params } : {}) }, sessionId ? { 'acp-session-id': sessionId } : {}),
    );
    if (res.status !== 202) throw new Error(`${method}: HTTP ${res.status} ${res.body}`);
    const answer = await until(() => this.messages.find((m) => m.id === id && m.method === undefined), `the answer to ${method}`);
    if (answer.error) throw Object.assign(new Error(answer.error.message), { rpc: answer.error });
    return answer.result as T;
  }

  /** Answers a hub → client request. */
  answer(id: string | number, result: unknown, sessionId?: string): Promise<Answer> {
    return this.post({ jsonrpc: '2.0', id, result }, sessionId ? { 'acp-session-id': sessionId } : {});
  }

  notifications<T = Record<string, unknown>>(method: string): T[] {
    return this.messages.filter((m) => m.method === method && m.id === undefined).map((m) => m.params as T);
  }
}
