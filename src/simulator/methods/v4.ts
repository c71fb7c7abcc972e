import type { SimulatorCore } from '../simulator-core.js';
import { v4Command, v4CommandsQuery } from './v4-command.js';
import { v4QueryMethods } from './v4-queries.js';

type Handler = (sim: SimulatorCore, params: unknown) => unknown;

/** The v4 methods the simulator dispatches (§2.2); the rest answer -32601. */
export const v4Methods: Record<string, Handler> = {
  'v4/command': v4Command,
  'v4/commands/query': v4CommandsQuery,
  ...v4QueryMethods,
};
