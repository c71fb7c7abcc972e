/** ModelSelection (src/wire/model.ts): what the CLI accepts, and the old spellings the hub still reads. */
import { describe, expect, it } from 'vitest';
import { modelSelectionSchema } from '../../src/acp/zcode-event-schema.js';
import { ModelSelectionSchema } from '../../src/simulator/schemas/common.js';
import { modelSelection } from '../../src/wire/model.js';

describe('ModelSelection, one definition', () => {
  it('the hub and the simulator read with the two readings of the same definition', () => {
    expect(modelSelectionSchema).toBe(modelSelection.lenient);
    expect(ModelSelectionSchema).toBe(modelSelection.strict);
  });

  it('an old `providerID`/`modelID` spelling: strict refuses it, lenient reads it', () => {
    const old = { providerID: 'zai', modelID: 'glm-5' };
    const strict = modelSelection.strict.safeParse(old);
    expect(strict.success).toBe(false);
    expect(strict.error?.issues.map((i) => i.code)).toContain('unrecognized_keys');
    expect(modelSelection.lenient.parse(old)).toEqual(old);
  });

  it('a blank id or an unknown option: strict refuses, lenient keeps', () => {
    const sel = { providerId: ' ', modelId: 'glm-5', options: { reasoningLevel: 'high', budget: 3 } };
    expect(modelSelection.strict.safeParse(sel).success).toBe(false);
    expect(modelSelection.lenient.parse(sel)).toEqual(sel);
    expect(modelSelection.strict.parse({ providerId: 'zai', modelId: 'glm-5', options: { reasoningLevel: 'high' } })).toBeTruthy();
  });
});
