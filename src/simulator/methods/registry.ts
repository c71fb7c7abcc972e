import type { MethodHandler } from '../connection.js';
import type { SimulatorCore } from '../simulator-core.js';
import { parseParams } from '../protocol-error.js';
import { TestConnectivityParams } from '../schemas/session-params.js';
import * as control from './session-control.js';
import { goal } from './session-goal.js';
import * as lifecycle from './session-lifecycle.js';
import * as query from './session-query.js';
import { workflowMethods } from './workflows.js';
import { v4Methods } from './v4.js';

type Handler = (sim: SimulatorCore, params: unknown) => unknown;

/** The dispatched methods (§2.1, §2.2); everything else is -32601 `Method not found: <m>`. */
const METHODS: Record<string, Handler> = {
  'session/create': lifecycle.create,
  'session/resume': lifecycle.resume,
  'session/list': lifecycle.list,
  'session/close': lifecycle.close,
  'session/fork': lifecycle.fork,
  'session/read': query.read,
  'session/messages': query.messages,
  'session/events': query.events,
  'session/subscribe': query.subscribe,
  'session/usage': query.usage,
  'session/subagents': query.subagents,
  'session/send': control.send,
  'session/stop': control.stop,
  'session/cancelBackgroundTask': control.cancelBackgroundTask,
  'session/compact': control.compact,
  'session/setMode': control.setMode,
  'session/setThoughtLevel': control.setThoughtLevel,
  'session/setModel': control.setModel,
  'session/goal': goal,
  // §4.19: params ignored.
  'runtime/capabilities': () => ({ independentPlanState: true }),
  'provider/testModelConnectivity': (sim, params) => {
    const p = parseParams(TestConnectivityParams, params);
    sim.providerRefresh?.();
    sim.registry.resolve(p.selection, false);
    return { success: true };
  },
  ...workflowMethods,
  ...v4Methods,
};

/** Binds every handler to the simulator. */
export function buildMethodTable(sim: SimulatorCore): Map<string, MethodHandler> {
  return new Map(Object.entries(METHODS).map(([name, h]) => [name, (params: unknown) => h(sim, params)]));
}
