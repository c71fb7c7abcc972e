/**
 * One serialized JSON-RPC message, UTF-8-encoded once (ARCHITECTURE.md §4.3). A broadcast hands the
 * same `Frame` to every client, so the socket layer neither re-encodes the string nor measures
 * its length per client: it writes `bytes` as a text frame and budgets `bytes.length`.
 */
export class Frame {
  /** The UTF-8 encoding of `text`: exactly what goes on the wire. */
  readonly bytes: Buffer;

  /** The JSON-RPC method of a notification, when known: profiles drop what their client does not read. */
  constructor(
    readonly text: string,
    readonly method?: string,
  ) {
    this.bytes = Buffer.from(text, 'utf8');
  }
}
