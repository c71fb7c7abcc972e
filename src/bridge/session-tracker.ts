import { z } from 'zod';
import { ZCODE_NOTIFICATION } from '../zcode-ext/methods.js';

type Id = string | number;

interface Tracked {
  sessionId: string;
  cwd: string;
  lastSeq?: number;
  epoch?: string;
}

interface Orphan {
  id: Id;
  sessionId: string;
  epoch?: string;
}

const sessionParams = z.looseObject({ sessionId: z.string(), cwd: z.string().optional() });
const newSessionResult = z.looseObject({ sessionId: z.string() });
const newSessionParams = z.looseObject({ cwd: z.string() });
const zcodeMeta = z.looseObject({
  _meta: z.looseObject({ zcode: z.looseObject({ seq: z.number().optional(), epoch: z.string().optional() }) }).optional(),
});
const updateParams = sessionParams.and(zcodeMeta);
const turnStateParams = z.looseObject({ sessionId: z.string(), state: z.string() });
const listResult = z.looseObject({
  sessions: z.array(
    z.looseObject({
      sessionId: z.string(),
      _meta: z.looseObject({ zcode: z.looseObject({ state: z.string().optional() }).optional() }).optional(),
    }),
  ),
});

/**
 * What the stdio bridge must remember to make a reconnect invisible: the editor's
 * `initialize`, the sessions it opened with their last `(seq, epoch)`, its requests in flight,
 * and prompts whose answer was lost with the old connection.
 */
export class SessionTracker {
  private init: unknown;
  private readonly sessions = new Map<string, Tracked>();
  private readonly pending = new Map<string, { id: Id; method: string; params: unknown }>();
  private readonly internal = new Map<string, { method: string; params: unknown }>();
  private orphans: Orphan[] = [];
  private readonly ready: unknown[] = [];

  /** A request from the editor on its way to the hub. */
  editorRequest(id: Id, method: string, params: unknown): void {
    if (method === 'initialize') this.init = params;
    this.pending.set(String(id), { id, method, params });
  }

  /** The editor's request is no longer ours to answer (it was failed locally). */
  forget(id: Id): void {
    this.pending.delete(String(id));
  }

  /** The hub answered an editor request. */
  hubResponse(id: Id, result: unknown): void {
    const req = this.pending.get(String(id));
    if (!req) return;
    this.pending.delete(String(id));
    if (req.method === 'session/new') {
      const r = newSessionResult.safeParse(result);
      const p = newSessionParams.safeParse(req.params);
      if (r.success && p.success)
        this.sessions.set(r.data.sessionId, { sessionId: r.data.sessionId, cwd: p.data.cwd, ...this.metaOf(result) });
    } else if (req.method === 'session/load' || req.method === 'session/resume') {
      const p = sessionParams.safeParse(req.params);
      if (p.success && result !== undefined) {
        const prev = this.sessions.get(p.data.sessionId);
        this.sessions.set(p.data.sessionId, {
          sessionId: p.data.sessionId,
          cwd: p.data.cwd ?? prev?.cwd ?? '.',
          ...prev,
          ...this.metaOf(result),
        });
      }
    } else if (req.method === 'session/close') {
      const p = sessionParams.safeParse(req.params);
      if (p.success) this.sessions.delete(p.data.sessionId);
    }
  }

  private metaOf(result: unknown): { lastSeq?: number; epoch?: string } {
    const m = zcodeMeta.safeParse(result);
    const z0 = m.success ? m.data._meta?.zcode : undefined;
    return { ...(z0?.seq !== undefined ? { lastSeq: z0.seq } : {}), ...(z0?.epoch !== undefined ? { epoch: z0.epoch } : {}) };
  }

  /** A notification from the hub: keeps each session's last seq, and settles orphaned prompts. */
  hubNotification(method: string, params: unknown): void {
    // `_zcode/own_update` carries the seq of this client's own echoed prompt (no content).
    if (method === 'session/update' || method === ZCODE_NOTIFICATION.ownUpdate) {
      const p = updateParams.safeParse(params);
      if (!p.success) return;
      const s = this.sessions.get(p.data.sessionId);
      const z0 = p.data._meta?.zcode;
      if (s && z0?.seq !== undefined) {
        s.lastSeq = z0.seq;
        if (z0.epoch !== undefined) s.epoch = z0.epoch;
      }
    } else if (method === ZCODE_NOTIFICATION.turnState) {
      const p = turnStateParams.safeParse(params);
      if (p.success && p.data.state === 'idle') this.settleOrphans(p.data.sessionId, 'end_turn');
    }
  }

  private settleOrphans(sessionId: string, stopReason: 'end_turn' | 'cancelled'): void {
    const keep: Orphan[] = [];
    for (const o of this.orphans) {
      if (o.sessionId === sessionId) this.ready.push({ jsonrpc: '2.0', id: o.id, result: { stopReason } });
      else keep.push(o);
    }
    this.orphans = keep;
  }

  /** The connection dropped: editor requests in flight fail now, except prompts, which wait to be settled. */
  connectionLost(): unknown[] {
    const answers: unknown[] = [];
    for (const req of this.pending.values()) {
      const session = sessionParams.safeParse(req.params);
      if (req.method === 'session/prompt' && session.success) {
        this.orphans.push({
          id: req.id,
          sessionId: session.data.sessionId,
          ...(this.sessions.get(session.data.sessionId)?.epoch ? { epoch: this.sessions.get(session.data.sessionId)!.epoch! } : {}),
        });
      } else {
        answers.push({
          jsonrpc: '2.0',
          id: req.id,
          error: { code: -32603, message: 'The connection to zcode-hub was interrupted; please retry' },
        });
      }
    }
    this.pending.clear();
    this.internal.clear();
    return answers;
  }

  /** The editor's `initialize` params, re-sent first on every new connection. */
  initializeParams(): unknown {
    return this.init;
  }

  /** `session/resume` params for every session the editor has open, from its last seq. */
  sessionsToResume(): unknown[] {
    return [...this.sessions.values()].map((s) => ({
      sessionId: s.sessionId,
      cwd: s.cwd,
      mcpServers: [],
      ...(s.lastSeq !== undefined && s.epoch !== undefined ? { _meta: { zcode: { afterSeq: s.lastSeq, epoch: s.epoch } } } : {}),
    }));
  }

  /** A request the bridge itself sent (re-initialize, re-attach, state probe). */
  internalRequest(id: string, method: string, params: unknown): void {
    this.internal.set(id, { method, params });
  }

  /** The answer to one of the bridge's own requests. */
  internalResponse(id: string, result: unknown, failed: boolean): void {
    const req = this.internal.get(id);
    this.internal.delete(id);
    if (!req) return;
    if (req.method === 'session/resume') {
      const p = sessionParams.safeParse(req.params);
      if (!p.success) return;
      const { epoch } = this.metaOf(result);
      const orphans = this.orphans.filter((o) => o.sessionId === p.data.sessionId);
      // A new epoch means the hub or its child restarted: the old turn is gone.
      if (failed || orphans.some((o) => o.epoch !== undefined && epoch !== undefined && o.epoch !== epoch))
        this.settleOrphans(p.data.sessionId, 'cancelled');
      const s = this.sessions.get(p.data.sessionId);
      if (s && epoch !== undefined && s.epoch !== epoch) {
        s.epoch = epoch;
        delete s.lastSeq;
      }
      Object.assign(s ?? {}, this.metaOf(result));
    } else if (req.method === 'session/list') {
      const r = listResult.safeParse(result);
      if (!r.success) return;
      for (const s of r.data.sessions) if (s._meta?.zcode?.state === 'idle') this.settleOrphans(s.sessionId, 'end_turn');
    }
  }

  /** True when prompts still wait for their turn's end after a reconnect. */
  hasOrphans(): boolean {
    return this.orphans.length > 0;
  }

  /** Answers that became ready (orphaned prompts settled). */
  drainOrphanAnswers(): unknown[] {
    return this.ready.splice(0);
  }
}
