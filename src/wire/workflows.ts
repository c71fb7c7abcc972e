/**
 * Saved workflows (docs/APP-SERVER.md §8), defined once: `Meta` and the scope, which the hub
 * sends (`workflows/updateMeta`, `workflows/save`) and checks with the same strict reading the
 * simulator checks them with on arrival, and every `workflows/*` result, which the simulator
 * builds to the strict reading and the hub reads leniently (a newer CLI adding a field or a
 * failure reason never turns a read into a 500). Failures are results, `{ok:false, reason}`.
 * The runs (`workflows/runs` and the v4 run queries) are in workflow-runs.ts.
 */
import { z } from 'zod';
import { drift, message, unread } from './message.js';
import { strPlus } from './text.js';

const optStr = z.string().optional();

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

/** An `Entry` of `workflows/list` and `workflows/forRun`: the file's name, scope and `Meta`. */
export const workflowEntry = message({
  name: drift(strPlus, z.string()),
  description: z.string(),
  whenToUse: drift(strPlus.optional(), optStr),
  args: drift(z.record(z.string(), argDecl.strict).optional(), z.record(z.string(), z.unknown()).optional()),
  scope: workflowScope,
  path: drift(strPlus, z.string()),
});
export type WorkflowEntry = z.infer<typeof workflowEntry.strict>;

/** A file of the directory that is not a readable workflow, and why. */
const invalidWorkflow = message({ path: z.string(), reason: z.string() });

/** `workflows/list`: `dir` is returned even when it does not exist. */
export const workflowsListResult = message({
  workflows: workflowEntry.list(),
  invalid: invalidWorkflow.list(),
  dir: drift(strPlus, z.string()),
});

/**
 * `{ok:false, reason, detail?, path?}` of a `workflows/*` method: strictly one of the method's
 * own reasons (and `path` only where the method sends one); leniently any reason.
 */
function failure<const R extends readonly [string, ...string[]]>(reasons: R, withPath: boolean) {
  return message({
    ok: z.literal(false),
    reason: drift(z.enum(reasons), z.string()),
    detail: z.string().optional(),
    path: drift(withPath ? z.string().optional() : z.never().optional(), optStr),
  });
}

const READ_REASONS = ['invalid_name', 'not_found', 'parse_error', 'read_error'] as const;
const WRITE_REASONS = ['target_exists', 'write_error', 'run_not_found', 'script_missing', 'compile_failed'] as const;

/** Any `workflows/*` failure: strictly one of every method's reasons; the hub reads it this way for all of them. */
export const workflowFailure = failure([...READ_REASONS, ...WRITE_REASONS], true);

/** A method's result: its success or its failure, each read its own way. */
function outcome<OS extends z.ZodType, OL extends z.ZodType, FS extends z.ZodType, FL extends z.ZodType>(
  ok: { strict: OS; lenient: OL },
  fails: { strict: FS; lenient: FL },
) {
  return { strict: z.union([ok.strict, fails.strict]), lenient: z.union([ok.lenient, fails.lenient]) };
}

/** `workflows/get`. */
export const workflowGetResult = outcome(
  message({
    ok: z.literal(true),
    name: drift(strPlus, z.string()),
    path: drift(strPlus, z.string()),
    scope: workflowScope,
    meta: drift(workflowMeta.strict, z.record(z.string(), z.unknown())),
    script: z.string(),
  }),
  failure(READ_REASONS, false),
);

const pathOk = message({ ok: z.literal(true), path: drift(strPlus, z.string()) });

/** `workflows/updateMeta`: the file's header rewritten, its script kept. */
export const workflowUpdateMetaResult = outcome(pathOk, failure([...READ_REASONS, 'write_error'], false));

/** `workflows/delete`. */
export const workflowDeleteResult = outcome(pathOk, failure(['invalid_name', 'not_found', 'read_error'], false));

/** `workflows/move`: a global workflow copied into the project, never over a file. */
export const workflowMoveResult = outcome(
  message({ ok: z.literal(true), from: drift(strPlus, z.string()), to: drift(strPlus, z.string()) }),
  failure(['invalid_name', 'not_found', 'target_exists', 'read_error', 'write_error'], true),
);

/** `workflows/save`: a run's script saved under a name. */
export const workflowSaveResult = outcome(
  message({
    ok: z.literal(true),
    name: drift(strPlus, z.string()),
    scope: workflowScope,
    path: drift(strPlus, z.string()),
    overwritten: z.boolean(),
    shadowing: z.enum(['hides_global', 'hidden_by_project']).optional(),
  }),
  failure(['invalid_name', 'run_not_found', 'script_missing', 'target_exists', 'compile_failed', 'write_error'], true),
);

/** `workflows/forRun`: the saved workflow a run came from, if any (every field absent when none). */
export const workflowForRunResult = message({
  entry: workflowEntry.optional(),
  match: drift(z.enum(['candidate', 'script', 'name']).optional(), optStr),
  runArgs: unread(z.unknown().optional()),
});
