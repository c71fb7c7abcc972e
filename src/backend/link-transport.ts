import type { Logger } from '../logger.js';
import { ChildTransport } from './child-transport.js';
import type { BackendLinkOptions, LinkTransport, SpawnPlan } from './link-options.js';
import type { LineRing } from './stderr-ring.js';

/**
 * The transport of one generation of the child: the test factory's or a ChildTransport bounded
 * by the limits, tapped by the wire recorder when one records (`--record-wire`).
 */
export function createLinkTransport(options: BackendLinkOptions, plan: SpawnPlan, stderrRing: LineRing, log: Logger): LinkTransport {
  const limits = options.limits;
  const transport = options.transportFactory
    ? options.transportFactory(plan, stderrRing, log)
    : new ChildTransport(
        { command: plan.command, args: plan.args, env: plan.env, ...(plan.cwd ? { cwd: plan.cwd } : {}) },
        {
          maxLineBytes: limits.childStdoutLineBytes,
          stdinQueueBytes: limits.childStdinQueueBytes,
          stopGraceMs: limits.stopGraceMs,
          stderrLinesPerSecond: limits.stderrLogLinesPerSecond,
          stderrRing,
          logger: log,
          maxJsonDepth: limits.jsonMaxDepth,
        },
      );
  return options.wireRecorder ? options.wireRecorder.wrap(transport) : transport;
}
