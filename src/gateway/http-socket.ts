/**
 * One Streamable HTTP connection of `/acp` (ACP RFD "Streamable HTTP & WebSocket") seen as a
 * {@link GatewaySocket}, so the gateway's `ClientConnection` serves it unchanged: the client's
 * POSTs arrive as `message` events, and what the hub sends goes out as SSE events on the
 * connection's GET stream. Bytes sent while no stream is open wait here and count towards the
 * outbound budget exactly like a WebSocket's buffer, so a client that never reads — or reads
 * too slowly — is closed 4008 like a slow WebSocket.
 */
import { randomUUID } from 'node:crypto';
import { EventEmitter } from 'node:events';
import type { ServerResponse } from 'node:http';
import type { GatewaySocket } from './gateway-socket.js';

const OPEN = 1;
const CLOSING = 2;
const CLOSED = 3;
const DATA = Buffer.from('data: ');
const END = Buffer.from('\n\n');
/** An SSE comment: ignored by every parser, keeps proxies and idle timers from closing the stream. */
const KEEP_ALIVE = Buffer.from(':\n\n');

/** Why a GET stream was refused. */
export type StreamRefusal = 'conflict' | 'closed';

export class HttpSocket extends EventEmitter implements GatewaySocket {
  /** `Acp-Connection-Id`: random, unguessable; requests must also carry the same token's credential. */
  readonly connectionId = randomUUID();
  readonly CLOSED = CLOSED;
  readonly OPEN = OPEN;
  readyState = OPEN;
  /** Frames waiting for the GET stream. */
  private queue: Buffer[] = [];
  private queuedBytes = 0;
  private stream: ServerResponse | undefined;
  /** `Acp-Session-Id` GET streams (the SDK's model): kept open, no data (see attachSessionStream). */
  private readonly sessionStreams = new Map<string, ServerResponse>();
  /** Set while an `initialize` POST waits for its answer, which is the next frame sent. */
  private initializeReply: ((frame: Buffer) => void) | undefined;
  /** A request arrived since the last heartbeat (counts as liveness while no stream is open). */
  private active = true;
  private backlogAtPing = 0;
  private ended = false;

  constructor(private readonly onEnded: (socket: HttpSocket) => void) {
    super();
  }

  get bufferedAmount(): number {
    return this.queuedBytes + (this.stream?.writableLength ?? 0);
  }

  /** A client message from a POST: handed to the dispatcher like a WebSocket text frame. */
  deliver(text: string): void {
    this.active = true;
    this.emit('message', Buffer.from(text, 'utf8'), false);
  }

  /** Delivers an `initialize` POST and resolves with the hub's answer to it (the POST's body). */
  initialize(text: string): Promise<Buffer> {
    const answer = new Promise<Buffer>((resolve) => (this.initializeReply = resolve));
    this.deliver(text);
    return answer;
  }

  send(data: Buffer): void {
    if (this.readyState !== OPEN) return;
    const reply = this.initializeReply;
    if (reply) {
      // Nothing else is sent to a connection before its initialize answer (dispatch.ts).
      this.initializeReply = undefined;
      reply(data);
      return;
    }
    const framed = Buffer.concat([DATA, data, END]);
    if (this.stream) {
      this.stream.write(framed);
      return;
    }
    this.queue.push(framed);
    this.queuedBytes += framed.length;
  }

  /** Why a stream for `sessionId` (undefined: the connection stream) cannot open now, if it cannot. */
  refusal(sessionId: string | undefined): StreamRefusal | undefined {
    if (this.readyState !== OPEN) return 'closed';
    if (sessionId === undefined ? this.stream !== undefined : this.sessionStreams.has(sessionId)) return 'conflict';
    return undefined;
  }

  /**
   * Opens the server → client stream on `res` (headers already decided by the caller). One at a
   * time; frames queued meanwhile go out first, in order. A stream the client drops ends the
   * connection: bytes already written to it may be lost, and the client resumes by seq on a
   * new connection — the same contract as a dropped WebSocket (never a silent gap).
   */
  attachStream(res: ServerResponse): StreamRefusal | undefined {
    if (this.readyState !== OPEN) return 'closed';
    if (this.stream) return 'conflict';
    this.active = true;
    this.stream = res;
    for (const frame of this.queue) res.write(frame);
    this.queue = [];
    this.queuedBytes = 0;
    res.on('close', () => {
      if (this.stream === res) this.drop('the event stream was closed by the client');
    });
    return undefined;
  }

  /**
   * The SDK's per-session GET (`Acp-Session-Id`): accepted and kept open with keep-alives, but
   * the hub sends every message on the connection stream, so a session's replay, its result and
   * its live updates keep the one order the hub sent them in.
   */
  attachSessionStream(sessionId: string, res: ServerResponse): StreamRefusal | undefined {
    if (this.readyState !== OPEN) return 'closed';
    if (this.sessionStreams.has(sessionId)) return 'conflict';
    this.sessionStreams.set(sessionId, res);
    res.on('close', () => {
      if (this.sessionStreams.get(sessionId) === res) this.sessionStreams.delete(sessionId);
    });
    return undefined;
  }

  /** Number of `Acp-Session-Id` streams open (bounded by the caller). */
  get sessionStreamCount(): number {
    return this.sessionStreams.size;
  }

  /**
   * Heartbeat: a keep-alive on every stream; `pong` while the reader drains its stream (or, with
   * no stream open, while the client keeps sending requests). A reader that took nothing for a
   * whole interval gets no pong and is terminated at the next tick, like a WebSocket.
   */
  ping(): void {
    if (this.readyState !== OPEN) return;
    for (const res of this.sessionStreams.values()) res.write(KEEP_ALIVE);
    const stream = this.stream;
    if (stream) {
      const backlog = stream.writableLength;
      const drained = backlog === 0 || backlog < this.backlogAtPing;
      stream.write(KEEP_ALIVE);
      this.backlogAtPing = stream.writableLength;
      if (drained) this.emit('pong');
      return;
    }
    if (this.active) this.emit('pong');
    this.active = false;
  }

  /**
   * Ends every stream with an SSE comment naming the close code (the client sees EOF). The
   * socket stays CLOSING until every stream has finished, so a reader that never takes the
   * rest (the slow consumer just closed 4008) is terminated by the connection's close grace
   * (`wsCloseGraceMs`) like a WebSocket that never answers the close frame; otherwise its
   * stream — and over HTTP/1.1 its socket — stayed open for as long as the client kept it.
   */
  close(code: number, reason: string): void {
    if (this.readyState !== OPEN) return;
    const streams = this.streams();
    this.readyState = streams.length === 0 ? CLOSED : CLOSING;
    let open = streams.length;
    const note = Buffer.from(`: close ${code} ${reason.replace(/[\r\n]/g, ' ')}\n\n`);
    for (const res of streams) {
      res.end(note, () => {
        open -= 1;
        if (open === 0 && this.readyState === CLOSING) this.readyState = CLOSED;
      });
    }
    this.end(code, reason, false);
  }

  /** Destroys every stream not yet finished (dead peer, or a close the reader never drained). */
  terminate(): void {
    for (const res of this.streams()) if (!res.writableFinished) res.destroy();
    this.readyState = CLOSED;
    this.end(1006, 'terminated', true);
  }

  private drop(why: string): void {
    if (this.readyState !== OPEN) return;
    this.terminate();
    this.emit('error', new Error(why));
  }

  private streams(): ServerResponse[] {
    return [...(this.stream ? [this.stream] : []), ...this.sessionStreams.values()];
  }

  /** Once: forgets the queue, tells the registry, and (when not started by `close`) the connection. */
  private end(code: number, reason: string, emitClose: boolean): void {
    this.queue = [];
    this.queuedBytes = 0;
    this.initializeReply = undefined;
    if (this.ended) return;
    this.ended = true;
    this.onEnded(this);
    // `close()` is called by ClientConnection.close, which finishes itself; a terminate tells it.
    if (emitClose) this.emit('close', code, Buffer.from(reason));
  }
}
