/**
 * A permission's tool call as an interaction *view* carries it (the inbox, read-only copies,
 * `_zcode/interaction_opened`; docs/CLIENT-PROTOCOL.md "Interactions"): what is approved, bounded.
 * A Write's content is in its input and again in its diff, and a view is sent to every device in
 * every inbox list, so a large file would travel many times over. Here a tool input string a diff
 * already shows is left out (its key listed in `_meta.zcode.omittedInput`), and every text — a
 * diff's old or new text, a tool input string — is cut at `max` characters, marked
 * `_meta.zcode.truncated`. The live request an answering client is sent keeps everything. Pure.
 */
import type { RequestPermissionRequest } from '@agentclientprotocol/sdk';

type ToolCall = RequestPermissionRequest['toolCall'];

const cut = (text: string, max: number) => (text.length > max ? text.slice(0, max) : text);

/** The tool call of a view: duplicates left out, each text at most `max` characters. */
export function boundedToolCall(toolCall: ToolCall, max: number): ToolCall {
  let truncated = false;
  const shown = new Set<string>();
  const content = toolCall.content?.map((c) => {
    if (c.type !== 'diff') return c;
    shown.add(c.newText);
    if (typeof c.oldText === 'string') shown.add(c.oldText);
    const oldText = typeof c.oldText === 'string' ? cut(c.oldText, max) : c.oldText;
    truncated ||= c.newText.length > max || (typeof c.oldText === 'string' && c.oldText.length > max);
    return { ...c, newText: cut(c.newText, max), ...(oldText === undefined ? {} : { oldText }) };
  });
  const omitted: string[] = [];
  let rawInput = toolCall.rawInput;
  if (rawInput !== null && typeof rawInput === 'object' && !Array.isArray(rawInput)) {
    const kept: Record<string, unknown> = {};
    for (const [key, value] of Object.entries(rawInput as Record<string, unknown>)) {
      if (typeof value !== 'string') kept[key] = value;
      else if (shown.has(value) && value.length > 0) omitted.push(key);
      else {
        truncated ||= value.length > max;
        kept[key] = cut(value, max);
      }
    }
    rawInput = kept;
  } else if (typeof rawInput === 'string') {
    truncated ||= rawInput.length > max;
    rawInput = cut(rawInput, max);
  }
  if (!truncated && omitted.length === 0) return toolCall;
  const meta = (toolCall._meta ?? {}) as Record<string, unknown>;
  const zcode = (meta['zcode'] ?? {}) as Record<string, unknown>;
  return {
    ...toolCall,
    rawInput,
    ...(content === undefined ? {} : { content }),
    _meta: {
      ...meta,
      zcode: { ...zcode, ...(truncated ? { truncated: true } : {}), ...(omitted.length > 0 ? { omittedInput: omitted } : {}) },
    },
  };
}
