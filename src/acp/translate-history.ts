/**
 * Replay rebuilt from `session/messages` (APP-SERVER.md §3.7, ARCHITECTURE.md §4.2): user text →
 * user_message_chunk, assistant text → agent_message_chunk, reasoning → agent_thought_chunk,
 * tool parts → one card each with its final status and output. Model-only (synthetic) inputs
 * such as background-task notifications are not shown, as they were not shown live.
 */
import type { ContentBlock, SessionUpdate, ToolCallStatus } from '@agentclientprotocol/sdk';
import type { MessagePart, MessageWithParts } from './message-schema.js';
import { diffContent, isTerminalTool, isTodoTool, todosToPlanEntries, toolKind, toolLocations, toolTitle, asInput } from './tool-info.js';
import { turnEndedUpdate } from './turn-ended.js';
import {
  errorRawOutput,
  resultRawOutput,
  resultText,
  tail,
  terminalContent,
  terminalExitMeta,
  terminalInfoMeta,
  textContent,
  type ToolRawOutput,
} from './tool-output.js';

/** Final ACP status of a ZCode tool part state (§3.7). */
export function toolPartStatus(status: string): ToolCallStatus {
  switch (status) {
    case 'pending':
      return 'pending';
    case 'running':
      return 'in_progress';
    case 'completed':
      return 'completed';
    case 'error':
      return 'failed';
    default:
      return 'failed';
  }
}

/** Rebuilds the ACP updates of a conversation from its messages, in order. */
export function messagesToUpdates(messages: readonly MessageWithParts[]): SessionUpdate[] {
  return messages.flatMap(messageToUpdates);
}

/** The ACP updates of one message. */
export function messageToUpdates(message: MessageWithParts): SessionUpdate[] {
  const { info } = message;
  if (info.visibility === 'model-only') return [];
  const user = info.role === 'user';
  if (!user && info.role !== 'assistant') return [];
  const updates = message.parts.flatMap((part) => partToUpdates(part, user, info.messageId));
  // A failed turn keeps its marker in history too, so a late joiner sees the same failure.
  if (!user && info.finish === 'error') {
    const e = info.error;
    updates.push(
      turnEndedUpdate({
        outcome: 'failed',
        error: {
          message: e?.message || 'The agent could not finish this turn',
          ...(e?.code === undefined ? {} : { code: e.code }),
          ...(e?.type === undefined ? {} : { type: e.type }),
        },
      }),
    );
  }
  return updates;
}

/** `data:<mime>;base64,<data>` → its parts, else undefined. */
function dataUrl(url: string): { mimeType: string; data: string } | undefined {
  const m = /^data:([^;,]+);base64,/i.exec(url);
  return m?.[1] === undefined ? undefined : { mimeType: m[1], data: url.slice(m[0].length) };
}

/**
 * A history `file` part (§3.7) as ACP content: an inlined image (snapshots inline images as data
 * URLs, §3.6) is an image block, any other inlined file an embedded blob; a real URL stays a link.
 */
function fileContent(url: string, filename: string | undefined, mime: string | undefined): ContentBlock {
  const inline = dataUrl(url);
  if (inline === undefined)
    return { type: 'resource_link', uri: url, name: filename ?? url, ...(mime === undefined ? {} : { mimeType: mime }) };
  const mimeType = mime ?? inline.mimeType;
  if (mimeType.startsWith('image/')) return { type: 'image', mimeType, data: inline.data };
  return { type: 'resource', resource: { uri: `attachment:${filename ?? 'file'}`, mimeType, blob: inline.data } };
}

function partToUpdates(part: MessagePart, user: boolean, messageId: string): SessionUpdate[] {
  switch (part.type) {
    case 'text':
      if (part.ignored === true || (user && part.synthetic === true) || !part.text) return [];
      return [
        { sessionUpdate: user ? 'user_message_chunk' : 'agent_message_chunk', content: { type: 'text', text: part.text }, messageId },
      ];
    case 'reasoning':
      if (user || !part.text) return [];
      return [{ sessionUpdate: 'agent_thought_chunk', content: { type: 'text', text: part.text }, messageId }];
    case 'file': {
      if (part.url === undefined) return [];
      const content = fileContent(part.url, part.filename, part.mime);
      return [{ sessionUpdate: user ? 'user_message_chunk' : 'agent_message_chunk', content, messageId }];
    }
    case 'tool':
      return user ? [] : toolPartToUpdates(part);
    default:
      // step-start/finish, snapshot, patch, compaction, timeline, subagent, agent, retry: not shown.
      return [];
  }
}

/**
 * The card's title after a reload: the same as live (`toolTitle` from the input, `Agent: Survey
 * the project`) whenever the input names more than the tool; the stored title only when it says
 * more than the bare tool name. Live and history must not disagree.
 */
function historyTitle(toolName: string, input: unknown, stored: unknown, terminal: boolean): string {
  const live = toolTitle(toolName, input);
  if (live !== toolName || terminal) return live;
  return typeof stored === 'string' && stored.length > 0 && stored !== toolName ? stored : live;
}

/** A tool part → its card (`tool_call`), plus the terminal output/exit or a plan for TodoWrite. */
export function toolPartToUpdates(part: MessagePart): SessionUpdate[] {
  const toolCallId = part.callId ?? part.partId;
  if (toolCallId === undefined) return [];
  const toolName = part.tool ?? 'tool';
  const state = part.state ?? { status: 'completed' };
  const status = toolPartStatus(state.status);
  const input = state.input;
  const output = state.status === 'error' ? errorText(state.error) : resultText(state.output);
  const terminal = isTerminalTool(toolName);
  const rawOutput = historyRawOutput(state);
  const diffs = diffContent(toolName, input);
  const content = terminal
    ? [terminalContent(toolCallId)]
    : [...diffs, ...(output && (diffs.length === 0 || status === 'failed') ? [textContent(output)] : [])];
  const updates: SessionUpdate[] = [
    {
      sessionUpdate: 'tool_call',
      toolCallId,
      title: historyTitle(toolName, input, state.title, terminal),
      kind: toolKind(toolName),
      status,
      name: toolName,
      ...(content.length > 0 ? { content } : {}),
      ...(toolLocations(input).length > 0 ? { locations: toolLocations(input) } : {}),
      ...(input === undefined ? {} : { rawInput: input }),
      ...(rawOutput === undefined ? {} : { rawOutput }),
      _meta: { claudeCode: { toolName }, ...(terminal ? terminalInfoMeta(toolCallId) : {}) },
    },
  ];
  const done = status === 'completed' || status === 'failed';
  if (terminal && (output.length > 0 || done)) {
    updates.push({
      sessionUpdate: 'tool_call_update',
      toolCallId,
      _meta: {
        ...(output.length > 0
          ? { terminal_output: { terminal_id: toolCallId, data: tail(output) }, zcode: { outputText: tail(output) } }
          : {}),
        ...(done ? terminalExitMeta(toolCallId, status === 'completed' ? 0 : 1) : {}),
      },
    });
  }
  if (isTodoTool(toolName)) {
    const entries = todosToPlanEntries(asInput(input)['todos']);
    if (entries !== undefined) updates.push({ sessionUpdate: 'plan', entries });
  }
  return updates;
}

/**
 * The card's `rawOutput` after a reload, the same shape live gives it (tool-output.ts): a stored
 * `output` (the result's content) is `{success: true, content}`, an `error` part
 * `{success: false, content, error}`; a tool still pending or running has none, as live.
 */
function historyRawOutput(state: { status: string; output?: unknown; error?: unknown }): ToolRawOutput | undefined {
  if (state.status === 'error') return errorRawOutput(state.error);
  if (state.status !== 'completed') return undefined;
  return resultRawOutput({ success: true, content: state.output });
}

function errorText(error: unknown): string {
  if (typeof error === 'string') return error;
  if (error !== null && typeof error === 'object' && typeof (error as { message?: unknown }).message === 'string')
    return (error as { message: string }).message;
  return error === undefined ? '' : JSON.stringify(error);
}
