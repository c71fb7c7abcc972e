import { parseParams } from '../protocol-error.js';
import {
  CAS_TYPES,
  CommandEnvelopeSchema,
  CommandsQueryParams,
  KNOWN_TYPES,
  PAYLOADS,
  type CommandEnvelope,
  type ImplementedCommand,
} from '../schemas/v4-params.js';
import type { SessionRuntime, V4Ack } from '../session-runtime.js';
import type { SimulatorCore } from '../simulator-core.js';
import { executeCommand, type Decision } from './v4-command-handlers.js';

/** Settled ACKs remembered per session for duplicates (§7.2 rule 2: LRU of 512). */
export const V4_ACK_LRU = 512;
/** Global index for `v4/commands/query`; bounded like the per-session LRU. */
export const V4_INDEX_MAX = 10_000;

function indexKey(sessionId: string | null, commandId: string): string {
  return `${sessionId ?? ''}\u0000${commandId}`;
}

function remember(sim: SimulatorCore, rt: SessionRuntime | undefined, env: CommandEnvelope, ack: V4Ack): void {
  if (rt) {
    rt.v4Acks.set(env.commandId, ack);
    while (rt.v4Acks.size > V4_ACK_LRU) rt.v4Acks.delete(rt.v4Acks.keys().next().value as string);
  }
  sim.v4Index.set(indexKey(env.sessionId, env.commandId), ack);
  while (sim.v4Index.size > V4_INDEX_MAX) sim.v4Index.delete(sim.v4Index.keys().next().value as string);
}

function rejectedPayload(commandId: string, message: string): V4Ack {
  return { commandId, status: 'rejected', revisionAtDecision: 0, reasonCode: 'proto.invalidPayload', message };
}

/**
 * `v4/command` (§7): failures are ACKs, never JSON-RPC errors. Decision order of §7.2:
 * payload → duplicate → session → CAS → execute.
 */
export async function v4Command(sim: SimulatorCore, params: unknown): Promise<V4Ack> {
  const env = CommandEnvelopeSchema.safeParse(params);
  if (!env.success) {
    const raw = params && typeof params === 'object' ? (params as Record<string, unknown>)['commandId'] : undefined;
    return rejectedPayload(
      typeof raw === 'string' ? raw : '',
      env.error.issues.map((i) => `${i.path.join('.') || '(root)'}: ${i.message}`).join('; '),
    );
  }
  const e = env.data;
  if (!KNOWN_TYPES.has(e.type)) return rejectedPayload(e.commandId, `Unknown command type: ${e.type}`);
  if (CAS_TYPES.has(e.type) && e.baseRevision === undefined) return rejectedPayload(e.commandId, `baseRevision is required for ${e.type}`);
  const schema = PAYLOADS[e.type as ImplementedCommand] as (typeof PAYLOADS)[ImplementedCommand] | undefined;
  let payload: Record<string, unknown> = e.payload;
  if (schema) {
    const p = schema.safeParse(e.payload);
    if (!p.success) return rejectedPayload(e.commandId, p.error.issues.map((i) => `payload.${i.path.join('.')}: ${i.message}`).join('; '));
    payload = p.data;
  }
  const rt = e.sessionId === null ? undefined : sim.runtimes.get(e.sessionId);
  const prior = rt?.v4Acks.get(e.commandId);
  if (prior) {
    const settled = await prior;
    return settled.status === 'failed' ? settled : { ...settled, status: 'duplicate' };
  }
  if (!rt)
    return {
      commandId: e.commandId,
      status: 'rejected',
      revisionAtDecision: 0,
      reasonCode: 'proto.sessionNotFound',
      message: `Session is not active: ${e.sessionId ?? 'null'}`,
    };
  const revisionAtDecision = rt.v4Revision;
  if (CAS_TYPES.has(e.type) && e.baseRevision !== rt.v4Revision) {
    const ack: V4Ack = {
      commandId: e.commandId,
      status: 'stale',
      revisionAtDecision,
      reasonCode: 'proto.staleRevision',
      message: `baseRevision ${e.baseRevision} != ${rt.v4Revision}`,
    };
    remember(sim, rt, e, ack);
    return ack;
  }
  const running = (async (): Promise<V4Ack> => {
    let d: Decision;
    try {
      d = await executeCommand(sim, rt, e, payload);
    } catch (err) {
      d = { status: 'failed', reasonCode: 'fault.command.executionFailed', message: err instanceof Error ? err.message : String(err) };
    }
    if (d.status === 'accepted') rt.v4Revision++;
    return { commandId: e.commandId, revisionAtDecision, ...d };
  })();
  rt.v4Acks.set(e.commandId, running);
  const ack = await running;
  remember(sim, rt, e, ack);
  return ack;
}

/** `v4/commands/query` (§7.5). */
export function v4CommandsQuery(sim: SimulatorCore, params: unknown): unknown {
  const p = parseParams(CommandsQueryParams, params);
  return {
    results: p.commands.map((c) => ({
      key: { sessionId: c.sessionId, commandId: c.commandId },
      result: sim.v4Index.get(indexKey(c.sessionId, c.commandId)) ?? 'unknown',
    })),
    ...(p.clock ? { clock: Date.now() } : {}),
  };
}
