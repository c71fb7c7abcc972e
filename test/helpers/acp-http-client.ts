import http from 'node:http';
import { AcpPostClient, type PostReply } from './acp-post-client.js';

/**
 * The Streamable HTTP ACP client over HTTP/1.1 (acp-post-client.ts): `fetch` POSTs and one SSE
 * GET read with node:http. Tests see exactly what the hub sent, and can pause the stream to play
 * a stalled reader.
 */
export class AcpHttpClient extends AcpPostClient<Response> {
  private stream: http.IncomingMessage | undefined;
  private req: http.ClientRequest | undefined;
  streamEnded = false;
  /** Raw SSE text received (comments included). */
  raw = '';

  constructor(
    readonly url: string,
    headers: Record<string, string>,
  ) {
    super(headers);
  }

  /** POSTs one message; returns the HTTP response. */
  post(message: unknown, extra: Record<string, string> = {}): Promise<Response> {
    return fetch(`${this.url}/acp`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...this.headersFor(extra) },
      body: JSON.stringify(message),
    });
  }

  protected async reply(res: Response): Promise<PostReply> {
    return { status: res.status, connectionId: res.headers.get('acp-connection-id') ?? undefined, body: await res.text() };
  }

  /** Opens the connection's event stream (resolves once the headers arrived). */
  openStream(extra: Record<string, string> = {}): Promise<number> {
    return new Promise((resolve, reject) => {
      const req = http.get(`${this.url}/acp`, { headers: { accept: 'text/event-stream', ...this.headersFor(extra) } }, (res) => {
        this.stream = res;
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => {
          this.raw += chunk;
          this.feed(chunk);
        });
        res.on('end', () => (this.streamEnded = true));
        res.on('close', () => (this.streamEnded = true));
        resolve(res.statusCode ?? 0);
      });
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

  /** Ends the stream from this side. */
  close(): void {
    this.req?.destroy();
  }
}
