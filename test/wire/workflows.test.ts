/** Workflow `Meta` (src/wire/workflows.ts): the hub sends what the simulator's reading accepts, by construction. */
import { describe, expect, it } from 'vitest';
import { workflowMetaSchema } from '../../src/app-server/workflow-schemas.js';
import { MetaSchema } from '../../src/simulator/schemas/workflow-params.js';

describe('workflow Meta, one definition', () => {
  it('the hub checks with the very schema the simulator checks with', () => {
    expect(workflowMetaSchema).toBe(MetaSchema);
  });

  it('refuses what the CLI refuses: a blank description, an unknown key, an undeclared arg type', () => {
    expect(workflowMetaSchema.safeParse({ description: 'Deploy' }).success).toBe(true);
    expect(workflowMetaSchema.safeParse({ description: '   ' }).success).toBe(false);
    expect(workflowMetaSchema.safeParse({ description: 'Deploy', icon: 'x' }).success).toBe(false);
    expect(workflowMetaSchema.safeParse({ description: 'Deploy', args: { env: { type: 'date' } } }).success).toBe(false);
  });
});
