/**
 * Reading a file of the state dir that an admin's decisions live in (`policy.json`,
 * `always-grants.json`): missing = the empty value; anything unreadable or invalid stops the start
 * with the file and the field named, rather than silently dropping what an admin set.
 */
import type { z } from 'zod';
import { HubError } from '../errors.js';
import { readFileIfExists } from '../fs/secure-file.js';
import { describeIssues } from './rule-schema.js';

/** The file's content checked by `schema`, or `empty` when there is no file. */
export function readStateFile<S extends z.ZodType>(file: string, schema: S, empty: z.infer<S>): z.infer<S> {
  const text = readFileIfExists(file);
  if (text === undefined) return empty;
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    throw new HubError('HUB_ERR_BAD_REQUEST', `${file} is not JSON; fix or remove it`);
  }
  const parsed = schema.safeParse(json);
  if (!parsed.success) throw new HubError('HUB_ERR_BAD_REQUEST', `${file}: ${describeIssues(parsed.error)}`);
  return parsed.data;
}
