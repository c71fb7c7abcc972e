/**
 * Which rule decides a request (docs/SECURITY.md "Approval rules"): the facts of one
 * interaction (its kind, tool, shell command, path relative to the session's workspace, the
 * workspace and the session) and the first rule, in order, whose every given field matches.
 * Globs are picomatch's (the glob dialect of the Node tooling, tested against bash's rules),
 * never a hand-written matcher: `command` and `tool` use bash rules (`*` crosses `/`), `path`
 * and `workspace` path rules (`*` stays in a segment, `**` crosses). Pure: no I/O.
 */
import path from 'node:path';
import picomatch from 'picomatch';
import { asInput, inputPath, toolKind } from '../acp/tool-info.js';
import type { InteractionRecord as AcpInteraction } from '../acp/interactions.js';
import type { Rule, RuleKind } from './rule-schema.js';

/** What a rule can match about one request. */
export interface RequestFacts {
  kind: RuleKind;
  tool?: string;
  /** The shell command, whitespace collapsed. */
  command?: string;
  /** The path the tool names, relative to the workspace with `/` (`../` + its absolute path when outside it). */
  path?: string;
  /** The session's workspace (absolute). */
  workspace: string;
  sessionId: string;
}

/** The facts of a parsed interaction in a session working in `workspace`. */
export function requestFacts(acp: AcpInteraction, workspace: string): RequestFacts {
  const base = { workspace, sessionId: acp.sessionId };
  switch (acp.kind) {
    case 'question':
    case 'elicitation':
      return { ...base, kind: 'question', ...(acp.toolName === undefined ? {} : { tool: acp.toolName }) };
    case 'plan_approval':
      return { ...base, kind: 'plan', tool: acp.toolName ?? 'ExitPlanMode' };
    case 'permission':
      return { ...base, ...toolFacts(acp.toolName, acp.input, workspace) };
  }
}

/** Facts of a tool call (also what `POST /api/policy/check` builds from `{tool, input}`). */
export function toolFacts(toolName: string, input: unknown, workspace: string): Pick<RequestFacts, 'kind' | 'tool' | 'command' | 'path'> {
  const i = asInput(input);
  const raw = typeof i['command'] === 'string' ? i['command'] : typeof i['cmd'] === 'string' ? i['cmd'] : undefined;
  const command = raw?.trim().replace(/\s+/g, ' ');
  const file = inputPath(i);
  return {
    kind: toolKind(toolName),
    tool: toolName,
    ...(command ? { command } : {}),
    ...(file === undefined ? {} : { path: relativeTo(workspace, file) }),
  };
}

/**
 * A path inside the workspace is relative to it (`src/a.ts`); one outside is `../` and its
 * absolute path (`/etc/hosts` → `../etc/hosts`): picomatch's `**` never crosses a `..` segment,
 * so `**` means "inside the workspace" and `../**` "anywhere outside it".
 */
function relativeTo(workspace: string, file: string): string {
  const absolute = path.resolve(workspace, file);
  const rel = path.relative(workspace, absolute);
  if (rel === '') return '.';
  const outside = rel === '..' || rel.startsWith(`..${path.sep}`) || path.isAbsolute(rel);
  return (outside ? `..${absolute}` : rel).split(path.sep).join('/');
}

const compiled = new WeakMap<Rule, (facts: RequestFacts) => boolean>();

/** The first rule that matches, or undefined (today's behaviour: ask every operate client). */
export function firstMatch(rules: readonly Rule[], facts: RequestFacts): Rule | undefined {
  return rules.find((rule) => matcherOf(rule)(facts));
}

function matcherOf(rule: Rule): (facts: RequestFacts) => boolean {
  let m = compiled.get(rule);
  if (m === undefined) {
    m = compile(rule);
    compiled.set(rule, m);
  }
  return m;
}

function compile(rule: Rule): (facts: RequestFacts) => boolean {
  const { kind, tool, command, path: pathGlob, workspace, session } = rule.match;
  const kinds = kind === undefined ? undefined : new Set<RuleKind>(Array.isArray(kind) ? kind : [kind]);
  const words = { bash: true, dot: true };
  const toolIs = tool === undefined ? undefined : picomatch(tool, { ...words, nocase: true });
  const commandIs = command === undefined ? undefined : picomatch(command, words);
  const pathIs = pathGlob === undefined ? undefined : picomatch(pathGlob, { dot: true });
  const workspaceIs = workspace === undefined ? undefined : picomatch(workspace, { dot: true });
  return (f) =>
    (kinds === undefined || kinds.has(f.kind)) &&
    (toolIs === undefined || (f.tool !== undefined && toolIs(f.tool))) &&
    (commandIs === undefined || (f.command !== undefined && commandIs(f.command))) &&
    (pathIs === undefined || (f.path !== undefined && pathIs(f.path))) &&
    (workspaceIs === undefined || workspaceIs(f.workspace)) &&
    (session === undefined || session === f.sessionId);
}
