/**
 * The v4 command ACK (docs/APP-SERVER.md §7.2), defined once: the simulator builds it to the
 * strict reading; the hub reads it leniently (src/app-server/session-schemas.ts). Refusals are
 * ACKs, not JSON-RPC errors.
 */
import { z } from 'zod';
import { drift, message } from './message.js';

export const ACK_STATUSES = ['accepted', 'rejected', 'stale', 'duplicate', 'noop', 'failed'] as const;

export const commandAck = message({
  commandId: z.string(),
  status: z.enum(ACK_STATUSES),
  /** Always sent; the hub does not need it to act on the ACK, so an ACK without it still counts. */
  revisionAtDecision: drift(z.number(), z.number().optional()),
  reasonCode: z.string().optional(),
  message: z.string().optional(),
  result: z.record(z.string(), z.unknown()).optional(),
});
export type CommandAck = z.infer<typeof commandAck.lenient>;
/** An ACK as the CLI sends it. */
export type StrictCommandAck = z.infer<typeof commandAck.strict>;
