/**
 * One serialized JSON-RPC message, UTF-8-encoded once (ARCHITECTURE.md §4.3). A broadcast hands the
 * same `Frame` to every client, so the socket layer neither re-encodes the string nor measures
 * its length per client: it writes `bytes` as a text frame and budgets `bytes.length`. What the
 * socket layer reads of a frame for each client (its update kind, its WebSocket bytes) is kept on
 * the frame itself, worked out once: a lookup per client per frame was a measurable share of a
 * broadcast (BENCHMARKS.md, seventh session).
 */
export class Frame {
  /** The UTF-8 encoding of `text`: exactly what goes on the wire. */
  readonly bytes: Buffer;
  /** The text, when the frame was built from it or once read (a stored frame is decoded on demand). */
  private decoded: string | undefined;
  /**
   * The transport's whole encoding of this frame (a WebSocket text frame,
   * src/gateway/ws-text-frame.ts), built by the first client that sends it and reused by the rest.
   */
  wire: Buffer | undefined;
  private kind: string | null | undefined;

  /**
   * @param source the serialized message, or its UTF-8 bytes as stored (the journal's, sent again).
   * @param method the JSON-RPC method of a notification, when known: profiles drop what their client does not read.
   * @param updateKind the `session/update` kind, when the serializer knows it (else read from the text on first use).
   */
  constructor(
    source: string | Buffer,
    readonly method?: string,
    updateKind?: string,
  ) {
    if (typeof source === 'string') {
      this.decoded = source;
      this.bytes = Buffer.from(source, 'utf8');
    } else {
      this.decoded = undefined;
      this.bytes = source;
    }
    this.kind = updateKind;
  }

  /** The serialized JSON-RPC message. */
  get text(): string {
    if (this.decoded === undefined) this.decoded = this.bytes.toString('utf8');
    return this.decoded;
  }

  /** The `sessionUpdate` kind of a `session/update` frame; `null` for any other message. */
  get updateKind(): string | null {
    if (this.kind === undefined) this.kind = readKind(this.text, this.method);
    return this.kind;
  }
}

const KIND_AT = '"update":{"sessionUpdate":"';

/**
 * Fast path: the hub writes an update's `sessionUpdate` first, so the text has
 * `"update":{"sessionUpdate":"<kind>"` (a quote inside a string value is escaped, so this cannot
 * come from content); otherwise the text is parsed.
 */
function readKind(text: string, method: string | undefined): string | null {
  if (method !== undefined && method !== 'session/update') return null;
  const at = text.indexOf(KIND_AT);
  if (at >= 0) {
    const start = at + KIND_AT.length;
    const end = text.indexOf('"', start);
    if (end > start) return text.slice(start, end);
  }
  if (!text.includes('"sessionUpdate"')) return null;
  try {
    const msg = JSON.parse(text) as { method?: unknown; params?: { update?: { sessionUpdate?: unknown } } };
    const k = msg.method === 'session/update' ? msg.params?.update?.sessionUpdate : undefined;
    return typeof k === 'string' ? k : null;
  } catch {
    return null;
  }
}
