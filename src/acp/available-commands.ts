/**
 * The agent's slash commands (a snapshot's `slashCommands`, APP-SERVER.md §3.6) as ACP's
 * `available_commands_update`. Read leniently: an entry without a usable name is dropped, never
 * the snapshot; texts are cut to what a command menu shows; at most `max` commands, first wins
 * on a repeated name.
 */
import type { AvailableCommand, SessionUpdate } from '@agentclientprotocol/sdk';
import { z } from 'zod';

/** Longest command name, description and input hint passed on. */
const NAME_CHARS = 64;
const DESCRIPTION_CHARS = 300;
const HINT_CHARS = 120;

const slashCommandSchema = z.looseObject({
  // A name is what follows the `/`: one word, no spaces (ACP clients insert `/name`).
  name: z
    .string()
    .trim()
    .regex(/^[^\s/][^\s]*$/)
    .max(NAME_CHARS),
  description: z.string().catch(''),
  inputHint: z.string().optional().catch(undefined),
});

/** The usable commands of a `slashCommands` value; `undefined` when it is not a list at all. */
export function availableCommands(raw: unknown, max: number): AvailableCommand[] | undefined {
  if (!Array.isArray(raw)) return undefined;
  const out: AvailableCommand[] = [];
  const seen = new Set<string>();
  for (const entry of raw) {
    if (out.length >= max) break;
    const parsed = slashCommandSchema.safeParse(entry);
    if (!parsed.success || seen.has(parsed.data.name)) continue;
    seen.add(parsed.data.name);
    const hint = parsed.data.inputHint?.trim().slice(0, HINT_CHARS);
    out.push({
      name: parsed.data.name,
      description: parsed.data.description.trim().slice(0, DESCRIPTION_CHARS),
      ...(hint ? { input: { hint } } : {}),
    });
  }
  return out;
}

/** Whether two command lists say the same (the update is sent only on a change). */
export function sameCommands(a: readonly AvailableCommand[], b: readonly AvailableCommand[]): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}

/** The ACP update announcing `commands`. */
export function availableCommandsUpdate(commands: AvailableCommand[]): SessionUpdate {
  return { sessionUpdate: 'available_commands_update', availableCommands: commands };
}
