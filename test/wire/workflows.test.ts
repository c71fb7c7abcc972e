/**
 * Saved workflows on the wire (src/wire/workflows.ts, workflow-runs.ts): the hub sends `Meta`
 * the simulator's reading accepts, by construction, and reads results more widely than the
 * contract the simulator is held to.
 */
import { describe, expect, it } from 'vitest';
import { workflowFailureSchema, workflowMetaSchema } from '../../src/app-server/workflow-schemas.js';
import { savedRun } from '../../src/wire/workflow-runs.js';
import { workflowGetResult, workflowMeta, workflowMoveResult, workflowSaveResult } from '../../src/wire/workflows.js';

describe('workflow Meta, one definition', () => {
  it('the hub checks with the very schema the simulator checks with', () => {
    expect(workflowMetaSchema).toBe(workflowMeta.strict);
  });

  it('refuses what the CLI refuses: a blank description, an unknown key, an undeclared arg type', () => {
    expect(workflowMetaSchema.safeParse({ description: 'Deploy' }).success).toBe(true);
    expect(workflowMetaSchema.safeParse({ description: '   ' }).success).toBe(false);
    expect(workflowMetaSchema.safeParse({ description: 'Deploy', icon: 'x' }).success).toBe(false);
    expect(workflowMetaSchema.safeParse({ description: 'Deploy', args: { env: { type: 'date' } } }).success).toBe(false);
  });
});

describe('workflow results, one definition read two ways', () => {
  it('strictly, a failure carries only its own method’s reasons and fields', () => {
    const notFound = { ok: false, reason: 'not_found' };
    expect(workflowGetResult.strict.safeParse(notFound).success).toBe(true);
    expect(workflowGetResult.strict.safeParse({ ok: false, reason: 'target_exists' }).success).toBe(false);
    expect(workflowGetResult.strict.safeParse({ ...notFound, path: '/x' }).success).toBe(false);
    expect(workflowMoveResult.strict.safeParse({ ok: false, reason: 'target_exists', path: '/x' }).success).toBe(true);
    expect(workflowSaveResult.strict.safeParse({ ok: false, reason: 'parse_error' }).success).toBe(false);
  });

  it('leniently, a newer CLI’s reason, key or time format still reads', () => {
    const newer = { ok: false, reason: 'quota_exceeded', hint: 'later' };
    expect(workflowGetResult.lenient.parse(newer)).toEqual(newer);
    expect(workflowFailureSchema.parse(newer)).toEqual(newer);
    const run = { runId: 'r1', status: 'stopped', stopReason: 'budget', createdAt: '2026-12-04T00:00:00Z', updatedAt: 1, spentTokens: 5 };
    expect(savedRun.strict.safeParse(run).success).toBe(false);
    expect(savedRun.lenient.parse({ ...run, extra: true })).toMatchObject({ stopReason: 'budget', extra: true });
  });
});
