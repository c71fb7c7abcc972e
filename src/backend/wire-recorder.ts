/**
 * `--record-wire FILE` (docs/APP-SERVER.md §15.3): every message between the hub and the
 * app-server child as NDJSON, `{dir: 'out'|'in', t, msg}` — `out` what the hub wrote, `in` what
 * the child wrote, `t` monotonic milliseconds since the recording began, `msg` the message as it
 * was on the wire (§1.3 envelope), secrets redacted (wire-redact.ts). `{dir: 'meta', …}` lines
 * mark a spawn, an exit and the end. Written synchronously (so a crash loses nothing already
 * said), mode 0600, and bounded: past `limits.wireRecordMaxBytes` one final marker line says so
 * and nothing more is written.
 */
import fs from 'node:fs';
import { performance } from 'node:perf_hooks';
import type { Logger } from '../logger.js';
import type { IncomingMessage } from './envelope.js';
import { BackendConfigError } from './spawn-plan.js';
import type { LinkTransport } from './link-options.js';
import type { TransportCloseInfo } from './transport.js';
import { providerFileSecrets, redactWire } from './wire-redact.js';
import { TappedTransport, type TransportTap } from './transport-tap.js';

export interface WireRecorderOptions {
  file: string;
  /** limits.wireRecordMaxBytes. */
  maxBytes: number;
  /** The personal provider file, whose secrets are cut out of every message. */
  providerFile: string;
  logger: Logger;
}

/** A recorded line's `msg`: the envelope as the wire carried it. */
function wireShape(message: IncomingMessage): object {
  switch (message.kind) {
    case 'request':
      return { id: message.id, method: message.method, ...(message.params === undefined ? {} : { params: message.params }) };
    case 'notification':
      return { method: message.method, ...(message.params === undefined ? {} : { params: message.params }) };
    case 'response':
      return { id: message.id, result: message.result };
    case 'error':
      return { id: message.id, error: message.error };
  }
}

/** The recording file of one hub run; `wrap` taps each child's transport. */
export class WireRecorder implements TransportTap {
  private fd: number | undefined;
  private bytes = 0;
  private readonly started = performance.now();
  private secrets = new Set<string>();
  private secretsStamp = '';

  constructor(private readonly options: WireRecorderOptions) {
    try {
      this.fd = fs.openSync(options.file, 'w', 0o600);
      // An existing file keeps its mode on open: make it private too.
      fs.fchmodSync(this.fd, 0o600);
    } catch (err) {
      throw new BackendConfigError(`cannot write the --record-wire file ${options.file}: ${(err as Error).message}`);
    }
    this.write({ dir: 'meta', event: 'start', format: 1 });
  }

  /** A transport that records what passes through `inner`. */
  wrap(inner: LinkTransport): LinkTransport {
    this.write({ dir: 'meta', event: 'spawn' });
    return new TappedTransport(inner, {
      in: (message) => this.record('in', wireShape(message)),
      out: (message) => this.record('out', message),
      exit: (info) => this.exited(info),
    });
  }

  /** One message (redacted). */
  record(dir: 'in' | 'out', msg: object): void {
    if (this.fd === undefined) return;
    this.refreshSecrets();
    this.write({ dir, msg: redactWire(msg, this.secrets) });
  }

  /** The child ended. */
  exited(info: TransportCloseInfo): void {
    this.write({ dir: 'meta', event: 'exit', code: info.code, signal: info.signal, ...(info.reason ? { reason: info.reason } : {}) });
  }

  /** Ends the recording (idempotent). */
  close(): void {
    if (this.fd === undefined) return;
    this.write({ dir: 'meta', event: 'end' });
    this.closeFile();
  }

  private write(entry: Record<string, unknown>): void {
    if (this.fd === undefined) return;
    const line = `${JSON.stringify({ ...entry, t: this.elapsed() })}\n`;
    const size = Buffer.byteLength(line);
    if (this.bytes + size > this.options.maxBytes && entry.dir !== 'meta') {
      this.append(
        `${JSON.stringify({ dir: 'meta', event: 'limit', limit: 'wireRecordMaxBytes', maxBytes: this.options.maxBytes, t: this.elapsed() })}\n`,
      );
      this.options.logger.warn(
        { file: this.options.file, maxBytes: this.options.maxBytes },
        'wire recording reached limits.wireRecordMaxBytes; stopped',
      );
      this.closeFile();
      return;
    }
    this.append(line);
    this.bytes += size;
  }

  /** Monotonic ms since the recording began, to the microsecond. */
  private elapsed(): number {
    return Math.round((performance.now() - this.started) * 1000) / 1000;
  }

  private append(text: string): void {
    try {
      fs.writeSync(this.fd!, text);
    } catch (err) {
      this.options.logger.error({ err: (err as Error).message, file: this.options.file }, 'cannot write the wire recording; stopped');
      this.closeFile();
    }
  }

  private closeFile(): void {
    const fd = this.fd;
    this.fd = undefined;
    if (fd !== undefined) fs.closeSync(fd);
  }

  /**
   * Re-reads the provider file's secrets when it changed. Looked at (one stat) before every
   * message: a key added over REST a moment before the prompt that quotes it must already be cut
   * out of that prompt. A throttle here let it through whenever the two came within its window.
   */
  private refreshSecrets(): void {
    let stamp = 'missing';
    try {
      const st = fs.statSync(this.options.providerFile);
      stamp = `${st.mtimeMs}:${st.size}:${st.ino}`;
    } catch {
      // missing: no secrets to add
    }
    if (stamp === this.secretsStamp) return;
    this.secretsStamp = stamp;
    // Keys once seen stay redacted: a key removed from the file may still be in the child's memory.
    for (const s of providerFileSecrets(this.options.providerFile)) this.secrets.add(s);
  }
}
