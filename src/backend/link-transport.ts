import type { Logger } from '../logger.js';
import { ChildTransport } from './child-transport.js';
import { InProcessTransport } from './in-process-transport.js';
import type { BackendLinkOptions, LinkTransport, SpawnPlan } from './link-options.js';
import type { LineRing } from './stderr-ring.js';

/**
 * The transport of one generation of the child: the test factory's, the simulator in this
 * process when one was given for a `sim` plan, or a ChildTransport — bounded by the same limits,
 * tapped by the wire recorder when one records (`--record-wire`).
 */
export function createLinkTransport(options: BackendLinkOptions, plan: SpawnPlan, stderrRing: LineRing, log: Logger): LinkTransport {
  const limits = options.limits;
  const bounds = {
    maxLineBytes: limits.childStdoutLineBytes,
    stdinQueueBytes: limits.childStdinQueueBytes,
    stopGraceMs: limits.stopGraceMs,
    stderrLinesPerSecond: limits.stderrLogLinesPerSecond,
    stderrRing,
    logger: log,
    maxJsonDepth: limits.jsonMaxDepth,
  };
  const inProcess = plan.kind === 'sim' ? options.inProcessServer : undefined;
  const transport = options.transportFactory
    ? options.transportFactory(plan, stderrRing, log)
    : inProcess
      ? new InProcessTransport(inProcess, { argv: plan.simArgs ?? [], env: plan.env }, bounds)
      : new ChildTransport({ command: plan.command, args: plan.args, env: plan.env, ...(plan.cwd ? { cwd: plan.cwd } : {}) }, bounds);
  return options.wireRecorder ? options.wireRecorder.wrap(transport) : transport;
}
