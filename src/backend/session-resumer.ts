/**
 * Resume-and-retry for cold sessions (APP-SERVER.md §10, §11.8): which failures a resume can
 * fix, and one shared `session/resume` per session at a time (CHD-08), announced to listeners.
 */
import type { Logger } from '../logger.js';
import { BackendRpcError, type BackendRequestOptions } from '../ports/backend-port.js';

/** Methods that wait on `session/requestRuntimePreferences` and get the longer timeout (§4.1/§4.2). */
export const SESSION_OPEN_METHODS: ReadonlySet<string> = new Set(['session/create', 'session/resume']);

/** -32004 messages that mean "resume will not help" (§10). */
const NOT_RESUMABLE = /^(Session not found|Cannot resolve)/;

function sessionIdOf(params: unknown): string | undefined {
  if (typeof params !== 'object' || params === null) return undefined;
  const id = (params as { sessionId?: unknown }).sessionId;
  return typeof id === 'string' && id.length > 0 ? id : undefined;
}

/** The session to resume before retrying a failed call once, or undefined when a resume cannot help. */
export function resumableSessionId(err: unknown, method: string, params: unknown, options: BackendRequestOptions): string | undefined {
  const sessionId = sessionIdOf(params);
  const resumable =
    err instanceof BackendRpcError &&
    err.code === -32004 &&
    !NOT_RESUMABLE.test(err.message) &&
    !options.noResumeRetry &&
    !SESSION_OPEN_METHODS.has(method) &&
    sessionId !== undefined;
  return resumable ? sessionId : undefined;
}

/** One `session/resume` per session at a time; concurrent callers share it (CHD-08). */
export class SessionResumer {
  private readonly resumes = new Map<string, Promise<unknown>>();
  private readonly listeners = new Set<(sessionId: string, snapshot: unknown) => void>();

  constructor(
    private readonly sendResume: (sessionId: string) => Promise<unknown>,
    private readonly log: Logger,
  ) {}

  /** Listens to every completed resume; returns the unsubscribe function. */
  onResumed(listener: (sessionId: string, snapshot: unknown) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Resumes `sessionId`, sharing a resume already in flight. */
  resume(sessionId: string): Promise<unknown> {
    let pending = this.resumes.get(sessionId);
    if (!pending) {
      pending = this.sendResume(sessionId)
        .then((snapshot) => {
          for (const listener of this.listeners) {
            try {
              listener(sessionId, snapshot);
            } catch (err) {
              this.log.error({ err, sessionId }, 'session-resumed listener threw');
            }
          }
          return snapshot;
        })
        .finally(() => this.resumes.delete(sessionId));
      this.resumes.set(sessionId, pending);
    }
    return pending;
  }
}
