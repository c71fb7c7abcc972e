/** Validators from the SDK's official JSON Schema (ARCHITECTURE.md §5), for conformance tests. */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import Ajv2020 from 'ajv/dist/2020.js';

const require = createRequire(import.meta.url);
const schema: unknown = JSON.parse(readFileSync(require.resolve('@agentclientprotocol/sdk/schema/v1/schema.json'), 'utf8'));
const ajv = new Ajv2020.default({ strict: false, allErrors: true, logger: false });
ajv.addSchema(schema as object, 'acp');

/** Returns the validation errors of `value` against `$defs/<def>` (empty when valid). */
export function acpErrors(def: string, value: unknown): unknown[] {
  const validate = ajv.getSchema(`acp#/$defs/${def}`);
  if (validate === undefined) throw new Error(`no $defs/${def}`);
  return validate(value) ? [] : [...(validate.errors ?? [])];
}
