import WebSocket from 'ws';

/**
 * One ACP client socket for timing single requests (B-LONG): counts every byte the hub sends it,
 * so a request's cost is "bytes received from the request to its answer" (the replay of a
 * `session/load` arrives before its result). No deflate unless asked.
 */
export class AcpProbe {
  /** Bytes of every frame payload received so far. */
  bytes = 0;
  frames = 0;
  /** Payloads kept while a capture runs (`capture`). */
  private kept: Buffer[] | undefined;
  private nextId = 1;
  private readonly pending = new Map<number, { resolve: (v: unknown) => void; reject: (e: Error) => void }>();

  private constructor(private readonly ws: WebSocket) {
    ws.on('message', (data: Buffer) => {
      this.bytes += data.length;
      this.frames += 1;
      this.kept?.push(data);
      // Only answers are parsed: the updates are counted, not read.
      if (data.includes('"method"') && !data.includes('"result"') && !data.includes('"error"')) return;
      const msg = JSON.parse(data.toString('utf8')) as { id?: number; result?: unknown; error?: { message?: string } };
      if (typeof msg.id !== 'number') return;
      const p = this.pending.get(msg.id);
      if (!p) return;
      this.pending.delete(msg.id);
      if (msg.error) p.reject(new Error(`ACP error: ${msg.error.message ?? JSON.stringify(msg.error)}`));
      else p.resolve(msg.result);
    });
    ws.on('close', () => {
      for (const p of this.pending.values()) p.reject(new Error('socket closed'));
      this.pending.clear();
    });
  }

  static async open(url: string, token: string, opts: { perMessageDeflate?: boolean } = {}): Promise<AcpProbe> {
    const ws = new WebSocket(url, { headers: { authorization: `Bearer ${token}` }, perMessageDeflate: opts.perMessageDeflate ?? false });
    await new Promise<void>((resolve, reject) => {
      ws.once('open', () => resolve());
      ws.once('unexpected-response', (_req, res) => reject(new Error(`upgrade refused: ${res.statusCode}`)));
      ws.once('error', reject);
    });
    const probe = new AcpProbe(ws);
    await probe.request('initialize', {
      protocolVersion: 1,
      clientCapabilities: {},
      clientInfo: { name: 'bench-probe', version: '0.0.0' },
    });
    return probe;
  }

  request(method: string, params: unknown, timeoutMs = 120_000): Promise<unknown> {
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        this.pending.delete(id);
        reject(new Error(`${method}: no answer in ${timeoutMs} ms`));
      }, timeoutMs);
      this.pending.set(id, {
        resolve: (v) => {
          clearTimeout(timer);
          resolve(v);
        },
        reject: (e) => {
          clearTimeout(timer);
          reject(e);
        },
      });
      this.ws.send(JSON.stringify({ jsonrpc: '2.0', id, method, params }));
    });
  }

  /** Milliseconds and bytes received from sending `method` to its answer. */
  async timed(method: string, params: unknown): Promise<{ ms: number; bytes: number; result: unknown }> {
    const before = this.bytes;
    const t0 = performance.now();
    const result = await this.request(method, params);
    return { ms: performance.now() - t0, bytes: this.bytes - before, result };
  }

  /** Keeps every payload received from now on; the returned function ends the capture and answers them. */
  capture(): () => Buffer[] {
    const kept: Buffer[] = [];
    this.kept = kept;
    return () => {
      this.kept = undefined;
      return kept;
    };
  }

  close(): void {
    this.ws.close();
  }
}
