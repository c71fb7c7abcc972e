/** Which cards of a chat the terminal panel lists (pure; the chat header counts them too). */
import type { ChatItem, ToolItem } from './chat-types.js';

/** Every card of the chat whose output is a terminal (shell calls, background tasks), oldest first, sub-agents' too. */
export function terminalCards(items: readonly ChatItem[] | undefined): ToolItem[] {
  const out: ToolItem[] = [];
  const visit = (c: ToolItem): void => {
    if (c.toolKind === 'execute' || c.terminal !== '' || c.task !== undefined) out.push(c);
    for (const child of c.children ?? []) visit(child);
  };
  for (const i of items ?? []) if (i.kind === 'tool') visit(i);
  return out;
}

/** A running background task (it can be stopped). */
export function taskRunning(c: ToolItem): boolean {
  return c.task !== undefined && c.task.status === 'running' && (c.status === 'in_progress' || c.status === 'pending');
}

// CSI sequences (colours, cursor moves) and OSC strings (titles, links), as terminals send them.
// biome-ignore lint/suspicious/noControlCharactersInRegex: matching the escape character is the point of this pattern
const ANSI = /\u001b\[[0-9;?]*[ -/]*[@-~]|\u001b\][^\u0007\u001b]*(?:\u0007|\u001b\\)|\u001b[@-Z\\-_]/g;

/** The text without its escape sequences (the card's preview; the panel renders the colours). */
export function stripAnsi(text: string): string {
  return text.replace(ANSI, '');
}
