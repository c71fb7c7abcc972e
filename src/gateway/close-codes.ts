import { HUB_ERRORS } from '../errors.js';

/**
 * WebSocket close codes the gateway uses (docs/CLIENT-PROTOCOL.md "Connecting"). RFC 6455 codes
 * where one fits; 4xxx private codes reuse the HTTP status they mean (hocuspocus convention),
 * taken from the error catalog so the two never drift.
 */
export const CLOSE = {
  /** Normal closure; never cancels a turn or an interaction (ARCHITECTURE.md §5). */
  NORMAL: 1000,
  /** The hub is shutting down. */
  GOING_AWAY: 1001,
  /** A binary frame: every message is a UTF-8 text frame (RFC 6455 §7.4.1 names 1003 for data of a type not accepted). */
  UNSUPPORTED_DATA: 1003,
  /** Policy: connection caps (per token / total) crossed after the upgrade. */
  POLICY: 1008,
  /** A message over `limits.wsMaxMessageBytes` (ws closes with it by itself, via `maxPayload`). */
  TOO_BIG: HUB_ERRORS.HUB_ERR_PAYLOAD_TOO_LARGE.close,
  /** Over the outbound budget: reconnect and resume from the last seq (ARCHITECTURE.md §4.3). */
  SLOW_CONSUMER: HUB_ERRORS.HUB_ERR_SLOW_CONSUMER.close,
  /** `limits.protocolViolationsBeforeClose` bad messages on one socket. */
  PROTOCOL_VIOLATION: HUB_ERRORS.HUB_ERR_PROTOCOL_VIOLATION.close,
  /** The token was revoked or expired while the socket was open (ARCHITECTURE.md §7). */
  UNAUTHENTICATED: HUB_ERRORS.HUB_ERR_UNAUTHENTICATED.close,
  /** Forbidden for this token. */
  FORBIDDEN: HUB_ERRORS.HUB_ERR_FORBIDDEN.close,
  /** The socket's Origin was removed from the peers while it was open: the app shows "not allowed". */
  ORIGIN_NOT_ALLOWED: HUB_ERRORS.HUB_ERR_ORIGIN.close,
  /** Sent by a client, not the hub: it found the socket dead (a failed probe) and reconnects at once. The hub treats it like any close. */
  CLIENT_RECONNECT: 4000,
} as const;

export type CloseCode = (typeof CLOSE)[keyof typeof CLOSE];
