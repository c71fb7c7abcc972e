import type { Identity } from '../../auth/identity.js';

/** Audit log entry sink (ARCHITECTURE.md §7: every prompt, answer, cancel and settings change). */
export type AuditSink = (entry: {
  identity: Identity;
  action: 'prompt' | 'cancel' | 'answer' | 'settings' | 'token' | 'pairing' | 'session' | 'policy.grant.add';
  sessionId?: string;
  detail?: Record<string, unknown>;
}) => void;
