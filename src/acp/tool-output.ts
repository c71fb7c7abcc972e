/**
 * Tool output for ACP: text extraction from ZCode results (§5.5.7), the terminal convention
 * (`_meta.terminal_info` / `terminal_output` / `terminal_exit`, as zed's claude-code-acp and
 * the seed-000 bridge use it), and a plain variant for clients that did not declare the
 * terminal capability (ARCHITECTURE.md §4.3: one more cached variant per wire profile).
 */
import type { SessionUpdate, ToolCallContent } from '@agentclientprotocol/sdk';
import { TRANSLATION_LIMITS } from './translation-context.js';

/** Keeps the last `max` characters of `text`. */
export function tail(text: string, max: number = TRANSLATION_LIMITS.maxToolOutputChars): string {
  return text.length > max ? text.slice(text.length - max) : text;
}

/** Text of a ZCode tool result's `content` (string, MCP-style blocks, or anything else as JSON). */
export function resultText(result: unknown): string {
  if (result === undefined || result === null) return '';
  if (typeof result === 'string') return result;
  if (typeof result !== 'object') return String(result);
  const r = result as Record<string, unknown>;
  if ('content' in r) return contentText(r['content']);
  return JSON.stringify(result);
}

function contentText(content: unknown): string {
  if (content === undefined || content === null) return '';
  if (typeof content === 'string') return content;
  if (Array.isArray(content)) {
    return content
      .map((block) => {
        if (typeof block === 'string') return block;
        const b = block as Record<string, unknown> | null;
        return b !== null && typeof b === 'object' && typeof b['text'] === 'string' ? b['text'] : '';
      })
      .filter((t) => t.length > 0)
      .join('\n');
  }
  return JSON.stringify(content);
}

/**
 * `rawOutput` of a tool card, one shape live and replayed (docs/CLIENT-PROTOCOL.md "Live and
 * replayed updates"): `{success, content}` with `content` the tool's output as text, plus
 * `error: {message, type?}` when the tool failed. Live it is built from `tool.updated`'s
 * `result`/`error`, on a reload from the stored part's `output`/`error`, so a client reading
 * `rawOutput.content` reads the same text either way.
 */
export interface ToolRawOutput {
  success: boolean;
  content: string;
  error?: { message: string; type?: string };
}

/** The card's `rawOutput` for a tool result (`{success, content, display?}` live, §5.5.7). */
export function resultRawOutput(result: unknown): ToolRawOutput {
  return { success: !resultFailed(result), content: resultText(result) };
}

/** The card's `rawOutput` for a failed tool: its error as `{message, type?}` (a string is a message). */
export function errorRawOutput(error: unknown): ToolRawOutput {
  const e = error !== null && typeof error === 'object' ? (error as Record<string, unknown>) : undefined;
  const message =
    typeof error === 'string'
      ? error
      : typeof e?.['message'] === 'string'
        ? e['message']
        : error === undefined
          ? ''
          : JSON.stringify(error);
  const type = typeof e?.['type'] === 'string' ? e['type'] : undefined;
  return { success: false, content: message, error: { message, ...(type === undefined ? {} : { type }) } };
}

/** A live result's `display` (the tool's own rendering hint), kept in `_meta.zcode.display`: history has none. */
export function resultDisplay(result: unknown): unknown {
  return result !== null && typeof result === 'object' ? (result as Record<string, unknown>)['display'] : undefined;
}

/** True when a ZCode tool result reports failure (`success: false`). */
export function resultFailed(result: unknown): boolean {
  return result !== null && typeof result === 'object' && (result as Record<string, unknown>)['success'] === false;
}

/** A text content block for a tool card. */
export function textContent(text: string): ToolCallContent {
  return { type: 'content', content: { type: 'text', text: tail(text) } };
}

/**
 * The part of `next` not yet sent, given the text already `sent`. ZCode reports sliding
 * tails (`stdoutTail`, `outputTail`), not deltas: find the longest suffix of `sent` that is a
 * prefix of `next` and return the rest. With no overlap, all of `next` is new.
 */
export function unsentSuffix(sent: string, next: string): string {
  if (next.length === 0) return '';
  if (sent.length === 0) return next;
  if (sent.endsWith(next)) return '';
  const max = Math.min(sent.length, next.length, 8_192);
  for (let k = max; k > 0; k--) {
    if (sent.endsWith(next.slice(0, k))) return next.slice(k);
  }
  return next;
}

/** `_meta` announcing a terminal for a tool card (its id is the toolCallId). */
export function terminalInfoMeta(toolCallId: string, cwd?: string): Record<string, unknown> {
  return { terminal_info: { terminal_id: toolCallId, ...(cwd === undefined ? {} : { cwd }) } };
}

/** `_meta` carrying new terminal output; `full` is the whole output so far (for the plain variant). */
export function terminalOutputMeta(toolCallId: string, data: string, full: string): Record<string, unknown> {
  return { terminal_output: { terminal_id: toolCallId, data }, zcode: { outputText: tail(full) } };
}

/** `_meta` closing a terminal. */
export function terminalExitMeta(toolCallId: string, exitCode: number, signal: string | null = null): Record<string, unknown> {
  return { terminal_exit: { terminal_id: toolCallId, exit_code: exitCode, signal } };
}

/** The terminal content block of a card whose output is a terminal. */
export function terminalContent(toolCallId: string): ToolCallContent {
  return { type: 'terminal', terminalId: toolCallId };
}

/**
 * The same update for a client without the `terminal_output` capability: terminal content and
 * terminal `_meta` become a text block of the output so far (`_meta.zcode.outputText`).
 * Updates without terminal parts are returned unchanged (same object).
 */
export function plainTerminalVariant(update: SessionUpdate): SessionUpdate {
  if (update.sessionUpdate !== 'tool_call' && update.sessionUpdate !== 'tool_call_update') return update;
  const meta = update._meta ?? undefined;
  const hasTerminalContent = update.content?.some((c) => c.type === 'terminal') ?? false;
  const hasTerminalMeta = meta !== undefined && ('terminal_info' in meta || 'terminal_output' in meta || 'terminal_exit' in meta);
  if (!hasTerminalContent && !hasTerminalMeta) return update;
  const rest: Record<string, unknown> = { ...meta };
  delete rest['terminal_info'];
  delete rest['terminal_output'];
  delete rest['terminal_exit'];
  const zcode = rest['zcode'] as Record<string, unknown> | undefined;
  const output = typeof zcode?.['outputText'] === 'string' ? zcode['outputText'] : undefined;
  const others = (update.content ?? []).filter((c) => c.type !== 'terminal');
  const content = output === undefined ? (hasTerminalContent ? others : update.content) : [...others, textContent(output)];
  const next = { ...update, _meta: Object.keys(rest).length > 0 ? rest : undefined } as SessionUpdate & { content?: unknown };
  if (content === undefined || content === null || (content.length === 0 && update.sessionUpdate === 'tool_call')) delete next.content;
  else next.content = content;
  if (next._meta === undefined) delete next._meta;
  return next;
}
