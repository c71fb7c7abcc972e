import type { AuditSink } from '../auth/audit-log.js';
import type { Identity } from '../auth/identity.js';
import { HubError } from '../errors.js';

/** One call to audit: who made it, what it was, and about which session and path. */
export interface AuditedCall {
  identity: Identity | undefined;
  action: string;
  sessionId?: string | undefined;
  detail: object;
}

/**
 * Runs one file or git read and records it with its outcome, whether it served or threw:
 * `served` (with what `served` adds, e.g. bytes), `refused` (403) or `failed` with the error code.
 */
export async function audited<T>(
  audit: AuditSink | undefined,
  call: AuditedCall,
  work: () => Promise<T>,
  served?: (t: T) => object,
): Promise<T> {
  const { identity, action, sessionId } = call;
  const record = (outcome: string, extra: object = {}) => {
    if (identity) audit?.({ identity, action, ...(sessionId ? { sessionId } : {}), detail: { ...call.detail, outcome, ...extra } });
  };
  try {
    const out = await work();
    record('served', served ? served(out) : {});
    return out;
  } catch (err) {
    record(
      err instanceof HubError && err.code === 'HUB_ERR_FORBIDDEN' ? 'refused' : 'failed',
      err instanceof HubError ? { error: err.code } : {},
    );
    throw err;
  }
}
