import type { z } from 'zod';

/**
 * Zod issues of a refused request, as the client reads them: each names the field by its full
 * path (`clientInfo.version: required`). ACP's schema is full of unions (`T | null`, content
 * blocks told apart by `type`), and zod reports a union that no branch accepts only at the
 * union's own path ("clientInfo: Invalid input"), which does not say what is missing. So a
 * union issue is replaced by the issues of the branch the value was meant for: the branches
 * refused for their shape (a value of another type, another `type` tag) are set aside, and of
 * the rest the one with the fewest issues is read. When every branch was refused for its tag,
 * the issue lists the tags the field accepts; when every branch wanted another type, the types.
 */

export interface ParamIssue {
  path: string;
  message: string;
}

type Issue = z.core.$ZodIssue;

/** Deepest union nesting followed (the ACP schema nests a few; a cycle cannot arise, but a bound is cheap). */
const MAX_DEPTH = 8;

/** A branch refused because the value is another kind of thing, not because a field of it is wrong. */
function refusedForShape(branch: readonly Issue[]): boolean {
  return branch.some((i) => (i.code === 'invalid_type' && i.path.length === 0) || (i.code === 'invalid_value' && i.values.length === 1));
}

/** The single literal a branch's tag must have, when that is what refused it. */
function tagOf(branch: readonly Issue[]): { path: PropertyKey[]; value: unknown } | undefined {
  const tag = branch.find((i): i is Extract<Issue, { code: 'invalid_value' }> => i.code === 'invalid_value' && i.values.length === 1);
  return tag ? { path: tag.path, value: tag.values[0] } : undefined;
}

function messageOf(issue: Issue): string {
  // zod words a missing field as a type error about `undefined`; the client needs "required".
  if (issue.code === 'invalid_type' && issue.message.endsWith('received undefined')) return 'required';
  return issue.message.replace(/^Invalid input: /, '');
}

function flatten(issue: Issue, prefix: readonly PropertyKey[], depth: number): Array<{ path: PropertyKey[]; message: string }> {
  const path = [...prefix, ...issue.path];
  if (issue.code !== 'invalid_union' || issue.errors.length === 0 || depth >= MAX_DEPTH) {
    return [{ path, message: messageOf(issue) }];
  }
  const meant = issue.errors.filter((b) => !refusedForShape(b));
  if (meant.length > 0) {
    const best = meant.reduce((a, b) => (b.length < a.length ? b : a));
    return best.flatMap((i) => flatten(i, path, depth + 1));
  }
  const tags = issue.errors.map(tagOf);
  const first = tags[0];
  if (first && tags.every((t) => t && t.path.join('.') === first.path.join('.'))) {
    const values = tags.map((t) => JSON.stringify(t?.value)).join(', ');
    return [{ path: [...path, ...first.path], message: `expected one of ${values}` }];
  }
  const kinds = issue.errors.map((b) => b.find((i) => i.code === 'invalid_type' && i.path.length === 0));
  if (kinds.every((k) => k?.code === 'invalid_type')) {
    const expected = [...new Set(kinds.map((k) => (k?.code === 'invalid_type' ? k.expected : '')))];
    return [{ path, message: `expected ${expected.join(' or ')}` }];
  }
  return [{ path, message: 'matches none of the accepted shapes' }];
}

/** Most issues listed in one refusal (a hostile frame can produce thousands). */
const MAX_ISSUES = 10;

/** Every issue of `error`, unions resolved to the field at fault, at most MAX_ISSUES. */
export function paramIssues(error: z.ZodError): ParamIssue[] {
  return error.issues
    .flatMap((i) => flatten(i, [], 0))
    .slice(0, MAX_ISSUES)
    .map((i) => ({ path: i.path.map(String).join('.'), message: i.message.slice(0, 200) }));
}

/** One line naming the first field at fault: "clientInfo.version: required (and 2 more)". */
export function describeIssues(issues: readonly ParamIssue[]): string {
  const first = issues[0];
  if (!first) return 'Invalid params';
  const more = issues.length > 1 ? ` (and ${issues.length - 1} more)` : '';
  return `Invalid params: ${first.path || '(params)'}: ${first.message}${more}`;
}
