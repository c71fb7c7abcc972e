import http2 from 'node:http2';
import { AcpPostClient, type PostReply } from './acp-post-client.js';

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

/** The Streamable HTTP ACP client (acp-post-client.ts) over one HTTP/2 connection: the POSTs and the SSE stream are streams of it. */
export class AcpH2Client extends AcpPostClient<H2Answer> {
  streamStatus = 0;
  private sse: http2.ClientHttp2Stream | undefined;

  constructor(
    readonly h2: H2Connection,
    headers: Record<string, string>,
  ) {
    super(headers);
  }

  post(message: unknown, extra: Record<string, string> = {}): Promise<H2Answer> {
    return this.h2.request(
      { ':method': 'POST', ':path': '/acp', 'content-type': 'application/json', ...this.headersFor(extra) },
      JSON.stringify(message),
    );
  }

  protected reply(res: H2Answer): Promise<PostReply> {
    const id = res.headers['acp-connection-id'];
    return Promise.resolve({ status: res.status, connectionId: id === undefined ? undefined : String(id), body: res.body });
  }

  override initialize(name = 'h2-test'): Promise<Record<string, unknown>> {
    return super.initialize(name);
  }

  /** Opens the event stream on the same connection; resolves with its status. */
  openStream(): Promise<number> {
    return new Promise((resolve, reject) => {
      const stream = this.h2.session.request({ ':method': 'GET', ':path': '/acp', accept: 'text/event-stream', ...this.headersFor() });
      this.sse = stream;
      stream.setEncoding('utf8');
      stream.on('response', (h) => {
        this.streamStatus = Number(h[':status']);
        resolve(this.streamStatus);
      });
      stream.on('data', (chunk: string) => this.feed(chunk));
      stream.on('error', reject);
    });
  }

  /** Stops reading the event stream: its flow-control window runs out and the hub's writes back up (a stalled reader). */
  pause(): void {
    this.sse?.pause();
  }

  close(): void {
    this.sse?.close();
  }
}
