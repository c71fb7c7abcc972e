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

interface Queued {
  at: number;
  deliver: () => void;
}

/**
 * One direction of the link: a chunk is on the wire from when the link is free for `size / rate`
 * seconds, then arrives half a round trip later. Arrival times only grow, so one FIFO and one
 * timer release everything in order.
 */
class Direction {
  private freeAt = 0;
  private readonly queue: Queued[] = [];
  private head = 0;
  private timer: ReturnType<typeof setTimeout> | undefined;

  /** Bytes per second and the one-way delay in ms; changed by `LatencyProxy.setProfile`. */
  constructor(
    public bytesPerSec: number,
    public oneWayMs: number,
  ) {}

  /** Queues `deliver` for when `size` bytes sent now (not before `notBefore`) would arrive. */
  send(size: number, notBefore: number, deliver: () => void): void {
    const start = Math.max(performance.now(), this.freeAt, notBefore);
    this.freeAt = start + (size * 1000) / this.bytesPerSec;
    this.queue.push({ at: this.freeAt + this.oneWayMs, deliver });
    this.arm();
  }

  private arm(): void {
    if (this.timer !== undefined || this.head === this.queue.length) return;
    const next = this.queue[this.head];
    if (!next) return;
    this.timer = setTimeout(() => this.release(), Math.max(0, next.at - performance.now()));
  }

  private release(): void {
    this.timer = undefined;
    const now = performance.now();
    for (let q = this.queue[this.head]; q && q.at <= now; q = this.queue[this.head]) {
      this.head++;
      q.deliver();
    }
    if (this.head === this.queue.length) {
      this.queue.length = 0;
      this.head = 0;
    }
    this.arm();
  }

  stop(): void {
    clearTimeout(this.timer);
    this.queue.length = 0;
    this.head = 0;
  }
}

export interface LatencyProxy {
  /** `http://127.0.0.1:<port>`: the address a browser opens instead of the target's. */
  url: string;
  port: number;
  /** Another link from now on (what is already on the wire keeps its times): one origin for every profile of a run. */
  setProfile(profile: LinkProfile): void;
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
    from.on('data', (chunk: Buffer) => {
      for (let off = 0; off < chunk.length; off += SLICE) {
        const slice = chunk.subarray(off, off + SLICE);
        dir.send(slice.length, notBefore, () => {
          if (to.writable) to.write(slice);
        });
      }
    });
    let ended = false;
    from.on('end', () => {
      ended = true;
      dir.send(0, notBefore, () => to.end());
    });
    // Closed without an end (reset, error, destroyed): the other side is cut too, after what was sent.
    from.on('close', () => {
      if (!ended) dir.send(0, notBefore, () => to.destroy());
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
    close: () =>
      new Promise<void>((resolve) => {
        up.stop();
        down.stop();
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
}
