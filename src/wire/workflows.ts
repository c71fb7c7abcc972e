/**
 * Saved workflows' metadata (docs/APP-SERVER.md §8), defined once: the hub checks what it sends
 * in `workflows/updateMeta` and `workflows/save` with the same strict reading the simulator
 * checks it with on arrival, so a body the CLI would refuse is refused at the hub's REST route.
 */
import { z } from 'zod';
import { message } from './message.js';
import { strPlus } from './text.js';

export const workflowScope = z.enum(['project', 'global']);
export type WorkflowScope = z.infer<typeof workflowScope>;

/** One declared argument of a workflow. */
export const argDecl = message({
  type: z.enum(['string', 'number', 'boolean', 'json']),
  description: z.string().optional(),
  required: z.boolean().optional(),
  default: z.unknown().optional(),
});

/** `Meta` (§8): what `updateMeta` and `save` accept. */
export const workflowMeta = message({
  description: strPlus,
  whenToUse: strPlus.optional(),
  args: z.record(z.string(), argDecl.strict).optional(),
});
export type WorkflowMeta = z.infer<typeof workflowMeta.strict>;
