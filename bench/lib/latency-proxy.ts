/**
 * A TCP proxy that behaves like a slow link: what a phone on a tunnel has between it and the hub.
 * Every byte each way waits half the round trip and is paced at that direction's bandwidth, on
 * one link per direction that all the proxy's connections share (a phone has one radio), and a
 * new connection's first bytes wait one more round trip, for the TCP handshake the loopback
 * connect to the proxy did not pay. It works below HTTP, so the page's requests, the WebSocket
 * upgrade and every frame on the socket pay alike — what CDP's `Network.emulateNetworkConditions`
 * does not do for WebSocket frames (BENCHMARKS.md "B-PHONE through a real round-trip proxy").
 * Listens on 127.0.0.1, port 0.
 */
import net from 'node:net';

/** A link: round trip in ms, bandwidth in bytes per second each way (`Infinity`: unpaced). */
export interface LinkProfile {
  rttMs: number;
  downBytesPerSec: number;
  upBytesPerSec: number;
}

/** Bytes released at once: small enough that a large answer arrives progressively, as on a real link. */
const SLICE = 4 * 1024;

/** How often `whenIdle` looks at the link. */
const IDLE_POLL_MS = 20;

/** One connection's bytes in one direction: waiting for the link, then on their way, in order. */
class Flow {
  readonly waiting: Array<{ size: number; deliver: () => void }> = [];
  private readonly arriving: Array<{ at: number; deliver: () => void }> = [];
  private timer: ReturnType<typeof setTimeout> | undefined;
  /** The connection closed on this side: the flow leaves the link once it has nothing left. */
  retired = false;

  /** Nothing of it leaves before `notBefore` (the TCP handshake's round trip). */
  constructor(readonly notBefore: number) {}

  get idle(): boolean {
    return this.waiting.length === 0 && this.arriving.length === 0;
  }

  /** `deliver` runs at `at`, never before what this flow sent earlier. */
  arrive(at: number, deliver: () => void): void {
    this.arriving.push({ at, deliver });
    this.arm();
  }

  private arm(): void {
    const next = this.arriving[0];
    if (this.timer !== undefined || !next) return;
    this.timer = setTimeout(
      () => {
        this.timer = undefined;
        const now = performance.now();
        for (let a = this.arriving[0]; a && a.at <= now; a = this.arriving[0]) {
          this.arriving.shift();
          a.deliver();
        }
        this.arm();
      },
      Math.max(0, next.at - performance.now()),
    );
  }

  stop(): void {
    clearTimeout(this.timer);
    this.waiting.length = 0;
    this.arriving.length = 0;
  }
}

/**
 * One direction of the link. The connections with bytes waiting take turns, a slice each (a
 * small answer is not stuck behind a large download, as on a link that TCP flows share, and as in
 * Chromium's own throttling); a slice is on the wire for `size / rate`, then arrives half a round
 * trip later.
 */
class Direction {
  private flows: Flow[] = [];
  private turn = 0;
  private freeAt = 0;
  private timer: ReturnType<typeof setTimeout> | undefined;

  /** Bytes per second and the one-way delay in ms; changed by `LatencyProxy.setProfile`. */
  constructor(
    public bytesPerSec: number,
    public oneWayMs: number,
  ) {}

  flow(notBefore: number): Flow {
    const f = new Flow(notBefore);
    this.flows.push(f);
    return f;
  }

  send(flow: Flow, size: number, deliver: () => void): void {
    flow.waiting.push({ size, deliver });
    this.pump();
  }

  /** Puts slices on the wire while the link is free, round robin; sleeps until it is free or a flow may send. */
  private pump(): void {
    if (this.timer !== undefined) return;
    this.flows = this.flows.filter((f) => !(f.retired && f.idle));
    for (;;) {
      const now = performance.now();
      if (this.freeAt > now) return this.sleep(this.freeAt - now);
      const ready = this.nextReady(now);
      if (ready === undefined) {
        const soonest = Math.min(...this.flows.filter((f) => f.waiting.length > 0).map((f) => f.notBefore));
        if (Number.isFinite(soonest)) this.sleep(soonest - now);
        return;
      }
      const item = ready.waiting.shift();
      if (!item) return;
      this.freeAt = Math.max(now, this.freeAt) + (item.size * 1000) / this.bytesPerSec;
      ready.arrive(this.freeAt + this.oneWayMs, item.deliver);
    }
  }

  /** Nothing on the wire or waiting for it: every byte sent so far has arrived. */
  get idle(): boolean {
    return this.freeAt <= performance.now() && this.flows.every((f) => f.idle);
  }

  /** The next flow in turn with something to send now. */
  private nextReady(now: number): Flow | undefined {
    for (let k = 0; k < this.flows.length; k++) {
      const i = (this.turn + k) % this.flows.length;
      const f = this.flows[i];
      if (f && f.waiting.length > 0 && f.notBefore <= now) {
        this.turn = i + 1;
        return f;
      }
    }
    return undefined;
  }

  private sleep(ms: number): void {
    this.timer = setTimeout(
      () => {
        this.timer = undefined;
        this.pump();
      },
      Math.max(0, ms),
    );
  }

  stop(): void {
    clearTimeout(this.timer);
    for (const f of this.flows) f.stop();
    this.flows = [];
  }
}

export interface LatencyProxy {
  /** `http://127.0.0.1:<port>`: the address a browser opens instead of the target's. */
  url: string;
  port: number;
  /** Another link from now on (what is already on the wire keeps its times): one origin for every profile of a run. */
  setProfile(profile: LinkProfile): void;
  /**
   * Resolves once nothing is on the link either way, or after `maxMs` (a socket that keeps
   * talking): a load timed next does not share the link with what the page before it left behind.
   */
  whenIdle(maxMs: number): Promise<void>;
  close(): Promise<void>;
}

/** Starts a proxy to `target` on 127.0.0.1, port 0, with `profile`'s round trip and bandwidths. */
export async function startLatencyProxy(target: { host: string; port: number }, profile: LinkProfile): Promise<LatencyProxy> {
  let link = profile;
  const up = new Direction(link.upBytesPerSec, link.rttMs / 2);
  const down = new Direction(link.downBytesPerSec, link.rttMs / 2);
  const sockets = new Set<net.Socket>();

  /** Forwards `from` to `to` through `dir`; the end and errors follow the data, in order. */
  const pipe = (from: net.Socket, to: net.Socket, dir: Direction, notBefore: number) => {
    const flow = dir.flow(notBefore);
    from.on('data', (chunk: Buffer) => {
      for (let off = 0; off < chunk.length; off += SLICE) {
        const slice = chunk.subarray(off, off + SLICE);
        dir.send(flow, slice.length, () => {
          if (to.writable) to.write(slice);
        });
      }
    });
    let ended = false;
    from.on('end', () => {
      ended = true;
      dir.send(flow, 0, () => to.end());
    });
    // Closed without an end (reset, error, destroyed): the other side is cut too, after what was sent.
    from.on('close', () => {
      if (!ended) dir.send(flow, 0, () => to.destroy());
      flow.retired = true;
    });
    from.on('error', () => undefined);
  };

  // Half-open both ways: an end from one side must not cut what the other still sends.
  const server = net.createServer({ allowHalfOpen: true }, (client) => {
    // The SYN / SYN-ACK a real link would have cost before the client's first byte left.
    const handshakeDone = performance.now() + link.rttMs;
    const upstream = net.connect({ port: target.port, host: target.host, allowHalfOpen: true });
    for (const s of [client, upstream]) {
      s.setNoDelay(true);
      sockets.add(s);
      s.on('close', () => sockets.delete(s));
    }
    pipe(client, upstream, up, handshakeDone);
    pipe(upstream, client, down, 0);
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', resolve);
  });
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('latency proxy: no TCP address');
  return {
    url: `http://127.0.0.1:${address.port}`,
    port: address.port,
    setProfile(next) {
      link = next;
      up.bytesPerSec = next.upBytesPerSec;
      down.bytesPerSec = next.downBytesPerSec;
      up.oneWayMs = down.oneWayMs = next.rttMs / 2;
    },
    async whenIdle(maxMs) {
      const until = performance.now() + maxMs;
      while (!(up.idle && down.idle) && performance.now() < until) await new Promise((r) => setTimeout(r, IDLE_POLL_MS));
    },
    close: () =>
      new Promise<void>((resolve) => {
        up.stop();
        down.stop();
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
}
