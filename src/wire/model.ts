/**
 * ModelSelection (docs/APP-SERVER.md §3.2), defined once: the hub sends it (`session/setModel`,
 * connectivity tests) and the simulator checks it strictly; the hub reads it leniently where the
 * child reports it (settings patches, `session.updated`), where older CLIs spell the ids
 * `providerID` / `modelID` and may leave either out.
 */
import { z } from 'zod';
import { drift, legacy, message } from './message.js';
import { strPlus } from './text.js';

const optStr = z.string().optional();

export const modelOptions = message({ reasoningLevel: drift(strPlus.optional(), optStr) });

export const modelSelection = message({
  providerId: drift(strPlus, optStr),
  modelId: drift(strPlus, optStr),
  providerID: legacy(optStr),
  modelID: legacy(optStr),
  options: modelOptions.optional(),
});
/** A ModelSelection as the CLI accepts it. */
export type ModelSelection = z.infer<typeof modelSelection.strict>;
/** A ModelSelection as the hub reads it from the child. */
export type ModelSelectionLike = z.infer<typeof modelSelection.lenient>;
