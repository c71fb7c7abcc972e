/**
 * The composer's `/` commands, built from what the session offers right now — its modes, its
 * select options (model, thinking level …), compaction, the goal, and the saved workflows this
 * device may start, and the agent's own commands (ACP `available_commands_update`, sent as the
 * prompt text they are) — never from a fixed list. Pure (unit-tested): `commandsFor` lists them,
 * `suggestCommands` filters them while typing, `resolveCommand` finds the one a sent text names.
 */
import type { SessionConfigOption } from '@agentclientprotocol/sdk';

export type CommandAction =
  | { kind: 'mode'; modeId: string }
  | { kind: 'config'; configId: string; value: string }
  | { kind: 'compact' }
  | { kind: 'goal'; action: 'set' | 'show' | 'pause' | 'resume' | 'clear' }
  | { kind: 'workflow'; scope: string; name: string }
  /** One of the agent's commands: the text `/name …` goes to the agent as a prompt. */
  | { kind: 'agent' };

export interface SlashCommand {
  /** What follows the `/`, e.g. `mode plan`, `compact`. */
  name: string;
  /** A short line of what it does (already translated by the caller). */
  hint: string;
  /** Shown after the name when the command takes free text (`/goal <objective>`). */
  argument?: string;
  /** What running it does (a bare `/goal` shows the goal; with text it sets it). */
  action: CommandAction;
  /** The one currently in effect (the session's mode, the chosen model). */
  current?: boolean;
}

export interface CommandSources {
  modes: Array<{ id: string; name: string }>;
  modeId?: string;
  configOptions: SessionConfigOption[];
  choices: (opt: SessionConfigOption) => Array<{ value: string; name: string }>;
  workflows: Array<{ scope: string; name: string; description?: string }>;
  /** The agent's commands (`available_commands_update`); those the app runs itself are not repeated. */
  agentCommands?: Array<{ name: string; description?: string; input?: { hint?: string } | null }>;
  text: (key: CommandText, ...args: string[]) => string;
}

/** The message keys the commands' hints use. */
export type CommandText =
  | 'cmdMode'
  | 'cmdOption'
  | 'cmdCompact'
  | 'cmdGoalSet'
  | 'cmdGoalShow'
  | 'cmdGoalPause'
  | 'cmdGoalResume'
  | 'cmdGoalClear'
  | 'cmdWorkflow'
  | 'cmdArgInstructions'
  | 'cmdArgObjective';

/** A word usable in a command name: lower case, spaces become dashes. */
function word(s: string): string {
  return s.trim().toLowerCase().replace(/\s+/g, '-');
}

/** The short name of a select option in a command (`thought_level` reads `thinking`). */
function optionWord(opt: SessionConfigOption): string {
  if (opt.id === 'thought_level') return 'thinking';
  return word(opt.id);
}

/** Every command the session offers now. */
export function commandsFor(src: CommandSources): SlashCommand[] {
  const out: SlashCommand[] = [];
  const modeOption = src.configOptions.some((o) => o.type === 'select' && (o.id === 'mode' || o.category === 'mode'));
  if (!modeOption)
    for (const m of src.modes)
      out.push({
        name: `mode ${word(m.id)}`,
        hint: src.text('cmdMode', m.name || m.id),
        action: { kind: 'mode', modeId: m.id },
        current: m.id === src.modeId,
      });
  for (const opt of src.configOptions) {
    if (opt.type !== 'select') continue;
    for (const c of src.choices(opt))
      out.push({
        name: `${optionWord(opt)} ${word(c.value)}`,
        hint: src.text('cmdOption', opt.name || opt.id, c.name || c.value),
        action: { kind: 'config', configId: opt.id, value: c.value },
        current: c.value === opt.currentValue,
      });
  }
  out.push({ name: 'compact', hint: src.text('cmdCompact'), argument: src.text('cmdArgInstructions'), action: { kind: 'compact' } });
  out.push({ name: 'goal', hint: src.text('cmdGoalSet'), argument: src.text('cmdArgObjective'), action: { kind: 'goal', action: 'set' } });
  out.push({ name: 'goal show', hint: src.text('cmdGoalShow'), action: { kind: 'goal', action: 'show' } });
  out.push({ name: 'goal pause', hint: src.text('cmdGoalPause'), action: { kind: 'goal', action: 'pause' } });
  out.push({ name: 'goal resume', hint: src.text('cmdGoalResume'), action: { kind: 'goal', action: 'resume' } });
  out.push({ name: 'goal clear', hint: src.text('cmdGoalClear'), action: { kind: 'goal', action: 'clear' } });
  for (const w of src.workflows)
    out.push({
      name: `workflow ${word(w.name)}`,
      hint: w.description ? `${src.text('cmdWorkflow', w.scope)} — ${w.description}` : src.text('cmdWorkflow', w.scope),
      action: { kind: 'workflow', scope: w.scope, name: w.name },
    });
  const known = new Set(out.map((c) => c.name.split(' ')[0]));
  for (const c of src.agentCommands ?? []) {
    const name = c.name.trim();
    if (!name || /\s/.test(name) || known.has(name.toLowerCase())) continue;
    known.add(name.toLowerCase());
    const hint = c.input?.hint?.trim();
    out.push({ name, hint: c.description ?? '', ...(hint ? { argument: hint } : {}), action: { kind: 'agent' } });
  }
  return out;
}

/** The commands a text being typed could become; none unless it starts with `/` on its first line. */
export function suggestCommands(text: string, commands: readonly SlashCommand[], max: number): SlashCommand[] {
  if (!text.startsWith('/') || text.includes('\n')) return [];
  const typed = text.slice(1).toLowerCase().replace(/\s+/g, ' ');
  if (typed.trim() === '') return overview(commands, max);
  // Past a command that takes free text, the rest is that text: nothing more to suggest.
  if (commands.some((c) => c.argument !== undefined && typed.startsWith(`${c.name} `))) return [];
  const starts = commands.filter((c) => c.name.startsWith(typed.trimStart()));
  const words = typed.trim().split(' ').filter(Boolean);
  const within = commands.filter((c) => !starts.includes(c) && words.length > 0 && words.every((w) => c.name.includes(w)));
  return [...starts, ...within].slice(0, max);
}

/**
 * With only `/` typed: one command of each kind first — each of the agent's own, then the app's
 * (compact, goal, workflows), then each picker's current choice — so a long list of models and
 * modes (which the config bar offers too) never hides the rest; then the others in their order.
 */
function overview(commands: readonly SlashCommand[], max: number): SlashCommand[] {
  const picker = (c: SlashCommand) => c.action.kind === 'mode' || c.action.kind === 'config';
  const ordered = [
    ...commands.filter((c) => c.action.kind === 'agent'),
    ...commands.filter((c) => c.action.kind !== 'agent' && !picker(c)),
    ...commands.filter((c) => picker(c) && c.current),
    ...commands.filter((c) => picker(c) && !c.current),
  ];
  const seen = new Set<string>();
  const first = ordered.filter((c) => {
    const kind = c.action.kind === 'agent' ? `agent ${c.name}` : (c.name.split(' ')[0] ?? c.name);
    if (seen.has(kind)) return false;
    seen.add(kind);
    return true;
  });
  return [...first, ...commands.filter((c) => !first.includes(c))].slice(0, max);
}

/** The command a sent text names, with its free text; undefined when the text is a prompt. */
export function resolveCommand(text: string, commands: readonly SlashCommand[]): { command: SlashCommand; argument: string } | undefined {
  const trimmed = text.trim();
  if (!trimmed.startsWith('/')) return undefined;
  const body = trimmed.slice(1).replace(/[ \t]+/g, ' ');
  const lower = body.toLowerCase();
  // The longest name wins (`goal pause` over `goal`).
  const byLength = [...commands].sort((a, b) => b.name.length - a.name.length);
  for (const c of byLength) {
    // The agent's commands are prompts: their text goes to the agent as it is.
    if (c.action.kind === 'agent') continue;
    if (lower === c.name) return { command: c, argument: '' };
    if (c.argument !== undefined && lower.startsWith(`${c.name} `)) return { command: c, argument: body.slice(c.name.length + 1).trim() };
  }
  return undefined;
}
