import fs from 'node:fs';
import { z } from 'zod';
import { jsonSyntaxProblem } from '../settings/json-error.js';

/** A rules file: a list of rules, or `{rules, revision?}` as `policy show --json` prints it. */
const fileSchema = z.union([z.array(z.unknown()), z.looseObject({ rules: z.array(z.unknown()), revision: z.number().optional() })]);

/** Why a file could not be read, in words (node's codes for the usual cases). */
function readProblem(err: unknown): string {
  const code = (err as NodeJS.ErrnoException).code;
  if (code === 'ENOENT') return 'there is no such file';
  if (code === 'EISDIR') return 'it is a folder';
  if (code === 'EACCES' || code === 'EPERM') return 'permission denied';
  return (err as Error).message;
}

/**
 * The rules in `file` for `zcode-hub policy set`, or one sentence naming the file and what is
 * wrong with it: unreadable, not JSON (with the line and column when V8 gives a position; the text
 * itself is never quoted), or JSON without rules. The rules themselves are checked by the hub.
 */
export function readRulesFile(file: string): { rules: unknown[] } | { problem: string } {
  let text: string;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch (err) {
    return { problem: `cannot read ${file}: ${readProblem(err)}` };
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (err) {
    return { problem: `${file} is ${jsonSyntaxProblem(err, text)}` };
  }
  const body = fileSchema.safeParse(value);
  if (!body.success)
    return { problem: `${file} holds no rules: give a JSON list of rules, or {"rules": [...]} (docs/policy.example.json)` };
  return { rules: Array.isArray(body.data) ? body.data : body.data.rules };
}
