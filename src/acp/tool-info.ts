/**
 * What an ACP client shows for a ZCode tool call, derived from the tool name and input alone:
 * kind (icon), title, file locations (follow-along) and diff content for edit tools. ZCode's
 * tools take Claude-Code-style inputs (`file_path`, `command`, `pattern`, `url`; §6.2
 * ruleContent), so names are matched case-insensitively and a few spellings are tolerated.
 */
import type { PlanEntry, ToolCallContent, ToolCallLocation, ToolKind } from '@agentclientprotocol/sdk';

type Input = Record<string, unknown>;

const KIND_BY_NAME: Record<string, ToolKind> = {
  read: 'read',
  ls: 'read',
  notebookread: 'read',
  todoread: 'read',
  edit: 'edit',
  multiedit: 'edit',
  write: 'edit',
  notebookedit: 'edit',
  apply_patch: 'edit',
  delete: 'delete',
  rm: 'delete',
  move: 'move',
  rename: 'move',
  grep: 'search',
  glob: 'search',
  search: 'search',
  toolsearch: 'search',
  bash: 'execute',
  shell: 'execute',
  bashoutput: 'execute',
  killshell: 'execute',
  killbash: 'execute',
  think: 'think',
  task: 'think',
  agent: 'think',
  todowrite: 'think',
  webfetch: 'fetch',
  fetch: 'fetch',
  websearch: 'fetch',
  enterplanmode: 'switch_mode',
  exitplanmode: 'switch_mode',
};

/** Tools whose output is shown as a terminal (`_meta.terminal_*`). */
const TERMINAL_TOOLS = new Set(['bash', 'shell']);

/** Narrows an unknown tool input to a plain object (or `{}`). */
export function asInput(input: unknown): Input {
  return input !== null && typeof input === 'object' && !Array.isArray(input) ? (input as Input) : {};
}

function str(input: Input, ...keys: string[]): string | undefined {
  for (const key of keys) {
    const value = input[key];
    if (typeof value === 'string' && value.length > 0) return value;
  }
  return undefined;
}

/** ACP tool kind from a ZCode tool name; unknown names (MCP tools, skills) are `other`. */
export function toolKind(toolName: string): ToolKind {
  return KIND_BY_NAME[toolName.toLowerCase()] ?? 'other';
}

/** True for tools whose output is rendered as a terminal (Bash). */
export function isTerminalTool(toolName: string): boolean {
  return TERMINAL_TOOLS.has(toolName.toLowerCase());
}

/** The file path a tool input names, if any. */
export function inputPath(input: unknown): string | undefined {
  return str(asInput(input), 'file_path', 'filePath', 'path', 'notebook_path');
}

/** True when the input asks to run in the background (`run_in_background: true`, APP-SERVER.md §14.7). */
export function isRunInBackground(input: unknown): boolean {
  return asInput(input)['run_in_background'] === true;
}

/** A one-line human title for a tool call card. */
export function toolTitle(toolName: string, input: unknown): string {
  const i = asInput(input);
  const path = inputPath(i);
  switch (toolKind(toolName)) {
    case 'execute': {
      const command = str(i, 'command', 'cmd');
      return command === undefined ? toolName : `\`${oneLine(command)}\``;
    }
    case 'read':
    case 'edit':
    case 'delete':
    case 'move':
      return path === undefined ? toolName : `${toolName} ${path}`;
    case 'search': {
      const pattern = str(i, 'pattern', 'query', 'glob');
      return pattern === undefined ? toolName : `${toolName} ${oneLine(pattern)}${path ? ` in ${path}` : ''}`;
    }
    case 'fetch': {
      const target = str(i, 'url', 'query');
      return target === undefined ? toolName : `${toolName} ${oneLine(target)}`;
    }
    case 'think':
    case 'switch_mode':
    case 'other': {
      const description = str(i, 'description', 'title');
      return description === undefined ? toolName : `${toolName}: ${oneLine(description)}`;
    }
  }
}

function oneLine(text: string, max = 120): string {
  const line = text.replace(/\s+/g, ' ').trim();
  return line.length > max ? `${line.slice(0, max - 1)}…` : line;
}

/** File locations a tool touches, for follow-along (ACP ToolCallLocation). */
export function toolLocations(input: unknown): ToolCallLocation[] {
  const i = asInput(input);
  const path = inputPath(i);
  if (path === undefined) return [];
  const line = typeof i['offset'] === 'number' && i['offset'] > 0 ? i['offset'] : undefined;
  return [line === undefined ? { path } : { path, line }];
}

/**
 * Diff content for edit tools whose old/new text is in the input: Edit (`old_string` →
 * `new_string`), MultiEdit (one diff per edit), Write (new file content, `oldText: null`).
 */
export function diffContent(toolName: string, input: unknown): ToolCallContent[] {
  const i = asInput(input);
  const path = inputPath(i);
  if (path === undefined) return [];
  const name = toolName.toLowerCase();
  if (name === 'write') {
    const content = str(i, 'content') ?? (typeof i['content'] === 'string' ? '' : undefined);
    return content === undefined ? [] : [{ type: 'diff', path, oldText: null, newText: content }];
  }
  if (name === 'edit') {
    const oldText = i['old_string'] ?? i['oldString'];
    const newText = i['new_string'] ?? i['newString'];
    if (typeof oldText !== 'string' || typeof newText !== 'string') return [];
    return [{ type: 'diff', path, oldText, newText }];
  }
  if (name === 'multiedit' && Array.isArray(i['edits'])) {
    return i['edits'].flatMap((edit): ToolCallContent[] => {
      const e = asInput(edit);
      const oldText = e['old_string'] ?? e['oldString'];
      const newText = e['new_string'] ?? e['newString'];
      return typeof oldText === 'string' && typeof newText === 'string' ? [{ type: 'diff', path, oldText, newText }] : [];
    });
  }
  return [];
}

const PLAN_STATUS = new Set(['pending', 'in_progress', 'completed']);
const PLAN_PRIORITY = new Set(['high', 'medium', 'low']);

/** ACP plan entries from a ZCode todo list (TodoWrite input or snapshot `todos`, §3.6). */
export function todosToPlanEntries(todos: unknown): PlanEntry[] | undefined {
  if (!Array.isArray(todos)) return undefined;
  return todos.flatMap((todo): PlanEntry[] => {
    const t = asInput(todo);
    const content = str(t, 'content', 'activeForm', 'title');
    if (content === undefined) return [];
    const status = typeof t['status'] === 'string' && PLAN_STATUS.has(t['status']) ? t['status'] : 'pending';
    const priority = typeof t['priority'] === 'string' && PLAN_PRIORITY.has(t['priority']) ? t['priority'] : 'medium';
    return [{ content, status: status as PlanEntry['status'], priority: priority as PlanEntry['priority'] }];
  });
}

/** True for the tool whose input is the session's todo list. */
export function isTodoTool(toolName: string): boolean {
  return toolName.toLowerCase() === 'todowrite';
}
