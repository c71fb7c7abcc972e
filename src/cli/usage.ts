import type { CommandSpec, OptionSpec, SubCommandSpec } from './command-spec.js';
import { COMMAND_SPECS } from './commands.js';

/**
 * The usage texts of `zcode-hub`, every one rendered from the command table (commands.ts): the
 * top level, a command (its sub-commands) and a sub-command (its arguments, its options with
 * their defaults, an example).
 */

const WIDTH = 100;
const USAGE = 'Usage: ';
const NBSP = '\u00a0';
const HELP_OPTION: OptionSpec = { short: 'h', help: 'show this help' };

/** True when `--help` or `-h` comes before any `--` (what follows `--` belongs to another command). */
export function wantsHelp(argv: readonly string[]): boolean {
  const end = argv.indexOf('--');
  return (end === -1 ? argv : argv.slice(0, end)).some((a) => a === '--help' || a === '-h');
}

/**
 * The sub-command `argv` names: its first word that is not an option nor an option's value
 * (an option that takes a value skips the next word unless that looks like an option itself,
 * so `pair --into --help` and `policy check --tool -h` still find their way).
 */
export function namedSub(spec: CommandSpec, argv: readonly string[]): SubCommandSpec | undefined {
  const end = argv.indexOf('--');
  const words = end === -1 ? argv : argv.slice(0, end);
  for (let i = 0; i < words.length; i++) {
    const w = words[i]!;
    if (w.startsWith('-')) {
      const name = w.replace(/^--?/, '');
      const option = spec.options[name] ?? Object.values(spec.options).find((o) => o.short === name);
      if (option?.value !== undefined && !w.includes('=') && !(words[i + 1] ?? '-').startsWith('-')) i++;
      continue;
    }
    return spec.subs?.find((s) => s.name === w);
  }
  return undefined;
}

function optionSynopsis(name: string, o: OptionSpec, required: boolean): string {
  const text = `--${name}${o.value === undefined ? '' : ` ${o.value}`}`;
  return `${required ? text : `[${text}]`}${o.multiple ? '…' : ''}`;
}

/**
 * `words` after `head`, wrapped at the width; continuation lines are indented under the first
 * word, `lead` being how many characters come before `head` on its line.
 */
function wrap(head: string, words: readonly string[], lead = 0): string {
  const lines: string[] = [];
  let line = head;
  const indent = head === '' ? '' : ' '.repeat(Math.min(head.length + 1, 40));
  for (const w of words) {
    if (lead + line.length + 1 + w.length > WIDTH && line.trim() !== '') {
      lines.push(line);
      line = `${indent}${w}`;
    } else line = line === '' ? w : `${line} ${w}`;
  }
  lines.push(line);
  return lines.join(`\n${' '.repeat(lead)}`);
}

/** Rows of two columns, the second wrapped beside the first. */
function table(rows: ReadonlyArray<readonly [string, string]>): string {
  const width = Math.min(34, Math.max(...rows.map(([left]) => left.length)) + 2);
  return rows
    .map(([left, right]) => {
      // A note in parentheses stays on one line: `(default: ~/.zcode-hub)` is not split.
      const words = right.replace(/\([^()]*\)$/, (note) => note.replaceAll(' ', NBSP)).split(' ');
      const text = wrap('', words, width + 2).replaceAll(NBSP, ' ');
      return `  ${left.length + 2 > width ? `${left}\n${' '.repeat(width + 2)}` : left.padEnd(width)}${text}`;
    })
    .join('\n');
}

function optionRows(options: Readonly<Record<string, OptionSpec>>, names: readonly string[], required: readonly string[]) {
  return names.map((name): readonly [string, string] => {
    const o = options[name]!;
    const left = `${o.short ? `-${o.short}, ` : ''}--${name}${o.value === undefined ? '' : ` ${o.value}`}`;
    const notes = [
      required.includes(name) ? 'required' : undefined,
      o.multiple ? 'repeatable' : undefined,
      o.default === undefined ? undefined : `default: ${o.default}`,
    ];
    const extra = notes.filter((n) => n !== undefined).join('; ');
    return [left, `${o.help}${extra ? ` (${extra})` : ''}`];
  });
}

function optionsBlock(spec: CommandSpec, names: readonly string[], required: readonly string[] = []): string {
  const rows = optionRows({ ...spec.options, help: HELP_OPTION }, [...names, 'help'], required);
  const start = spec.takesStartFlags && spec.name !== 'start' ? '\n  … and every start flag (zcode-hub start --help lists them)' : '';
  return `Options:\n${table(rows)}${start}\n`;
}

/** One sub-command's synopsis line: `zcode-hub token revoke ID [--json] [--state-dir DIR]`. */
function subSynopsis(spec: CommandSpec, sub: SubCommandSpec, lead: number): string {
  const required = sub.required ?? [];
  const ordered = [...required, ...sub.options.filter((o) => !required.includes(o))];
  const options = ordered.map((n) => optionSynopsis(n, spec.options[n]!, required.includes(n)));
  // Arguments after `--` belong to another command: they come last.
  const args = sub.args === undefined ? [] : [sub.args];
  const words = sub.args?.startsWith('[--') ? [...options, ...args] : [...args, ...options];
  return wrap(`zcode-hub ${spec.name} ${sub.name}`, words, lead);
}

function commandSynopsis(spec: CommandSpec, lead: number): string {
  const names = spec.synopsis ?? Object.keys(spec.options);
  // Options neither in the synopsis nor in another shape of the command are summed up.
  const elsewhere = (n: string) => names.includes(n) || (spec.alternatives ?? []).some((a) => a.includes(`--${n}`));
  const words = [
    ...(spec.args === undefined ? [] : [spec.args]),
    ...names.map((n) => optionSynopsis(n, spec.options[n]!, false)),
    ...(Object.keys(spec.options).every(elsewhere) ? [] : ['[OPTIONS]']),
    ...(spec.takesStartFlags ? ['[START FLAGS]'] : []),
  ];
  return wrap(`zcode-hub ${spec.name === 'start' ? '[start]' : spec.name}`, words, lead);
}

/** A sentence from a summary: capitalised, with its full stop. */
function sentence(text: string): string {
  return `${text.charAt(0).toUpperCase()}${text.slice(1)}.`;
}

function about(spec: CommandSpec): string {
  return spec.about === undefined ? '' : `${spec.about}\n`;
}

/** What a sub-command does, and whether it is the one run when none is named (said here only, never in a summary). */
function summaryOf(spec: CommandSpec, sub: SubCommandSpec): string {
  return `${sub.summary}${sub.name === spec.defaultSub ? ' (the default)' : ''}`;
}

/** A sub-command's usage: its synopsis, what it does, its options with their defaults, an example. */
export function subCommandUsage(spec: CommandSpec, sub: SubCommandSpec): string {
  const lines = [subSynopsis(spec, sub, USAGE.length), ...(sub.alternatives ?? [])];
  return `${USAGE}${lines.join(`\n${' '.repeat(USAGE.length)}`)}
${sentence(summaryOf(spec, sub))}
${about(spec)}
${optionsBlock(spec, sub.options, sub.required)}
Example:
  ${sub.example}
`;
}

/** A command's usage: with sub-commands, each one's synopsis and a pointer to its own help; without, its full usage. */
export function commandUsage(spec: CommandSpec): string {
  if (spec.subs === undefined) {
    const lines = [commandSynopsis(spec, USAGE.length), ...(spec.alternatives ?? [])];
    return `${USAGE}${lines.join(`\n${' '.repeat(USAGE.length)}`)}
${about(spec)}
${optionsBlock(spec, Object.keys(spec.options))}
Example:
  ${spec.example ?? `zcode-hub ${spec.name}`}
`;
  }
  const synopses = spec.subs.flatMap((s) => [subSynopsis(spec, s, 2), ...(s.alternatives ?? [])]);
  const subs = spec.subs.map((s): readonly [string, string] => [
    `${s.name}${s.args === undefined ? '' : ` ${s.args}`}`,
    summaryOf(spec, s),
  ]);
  const first = spec.subs[0]!;
  return `Usage:
${synopses.map((l) => `  ${l}`).join('\n')}
${about(spec)}
Sub-commands:
${table(subs)}

Each sub-command answers --help with its options, their defaults and an example, e.g.
  zcode-hub ${spec.name} ${first.name} --help
`;
}

/** What `--help` anywhere in `argv` shows for command `spec`: the usage of the sub-command it names, else the command's. */
export function helpFor(spec: CommandSpec, argv: readonly string[]): string {
  const sub = namedSub(spec, argv);
  return sub ? subCommandUsage(spec, sub) : commandUsage(spec);
}

/** `zcode-hub --help`: every command, one line each. */
export function topUsage(version: string): string {
  const rows = COMMAND_SPECS.map((c): readonly [string, string] => [
    `zcode-hub ${c.name}${c.subs ? ` ${c.subs.map((s) => s.name).join('|')}` : ''}`,
    c.summary,
  ]);
  return `zcode-hub ${version} — share one ZCode agent with every device and editor

Usage: zcode-hub [COMMAND] [SUB-COMMAND] [OPTIONS]   (no command: start)

Commands:
${table([...rows, ['zcode-hub --version | --help', 'this version, or this help']])}

Every command and sub-command answers --help with its arguments, its options and their defaults,
and an example: zcode-hub start --help, zcode-hub token create --help.
Every flag of start also reads ZCODE_HUB_<NAME> from the environment (e.g. ZCODE_HUB_PORT).
`;
}
