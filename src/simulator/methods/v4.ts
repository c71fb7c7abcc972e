import type { SimulatorCore } from '../simulator-core.js';
import { v4Command, v4CommandsQuery } from './v4-command.js';
import { v4QueryMethods } from './v4-queries.js';
import { v4Subscribe, v4Unsubscribe } from '../v4-conversation.js';

type Handler = (sim: SimulatorCore, params: unknown) => unknown;

/** The v4 methods the simulator dispatches (§2.2); the rest answer -32601. */
export const v4Methods: Record<string, Handler> = {
  'v4/command': v4Command,
  'v4/commands/query': v4CommandsQuery,
  'v4/conversation/subscribe': v4Subscribe,
  'v4/conversation/unsubscribe': v4Unsubscribe,
  ...v4QueryMethods,
};
