import { parseArgs, type ParseArgsConfig } from 'node:util';
import { parseArgsMessage, START_FLAGS } from '../config/load.js';
import type { CommandSpec, OptionSpec, SubCommandSpec } from './command-spec.js';
import { commandUsage, helpFor, namedSub, wantsHelp } from './usage.js';

/** Where a command writes; `process` satisfies it, tests pass collectors. */
export interface CliIo {
  stdout: { write(text: string): unknown };
  stderr: { write(text: string): unknown };
  env?: NodeJS.ProcessEnv;
}

type ParseArgsOptionsConfig = NonNullable<ParseArgsConfig['options']>;
type Value = string | boolean | Array<string | boolean> | undefined;

/** A command line parsed against its command's table entry. */
export class ParsedCommand {
  constructor(
    private readonly spec: CommandSpec,
    /** The sub-command named (or the default one); undefined for a command without sub-commands. */
    readonly sub: SubCommandSpec | undefined,
    /** The positional arguments after the sub-command's name. */
    readonly args: readonly string[],
    private readonly values: Readonly<Record<string, Value>>,
  ) {}

  /** The value of string option `name`. */
  string(name: string): string | undefined {
    const v = this.value(name);
    return typeof v === 'string' ? v : undefined;
  }

  /** Whether switch `name` was given. */
  flag(name: string): boolean {
    return this.value(name) === true;
  }

  private value(name: string): Value {
    // A name missing from the table is a mistake in this program, not in the command line.
    if (!(name in this.spec.options)) throw new Error(`zcode-hub ${this.spec.name}: no option --${name} in the command table`);
    return this.values[name];
  }
}

/** node:util parseArgs options of a command, from its table entry. */
export function parserOptions(spec: CommandSpec): ParseArgsOptionsConfig {
  const options: ParseArgsOptionsConfig = { help: { type: 'boolean', short: 'h' } };
  for (const [name, o] of Object.entries(spec.options))
    options[name] = {
      type: o.value === undefined ? 'boolean' : 'string',
      ...(o.multiple ? { multiple: true } : {}),
      ...(o.short ? { short: o.short } : {}),
    };
  return options;
}

/** `see zcode-hub token create --help`: where a mistaken command line is pointed. */
function seeHelp(spec: CommandSpec, sub: SubCommandSpec | undefined): string {
  return `(see \`zcode-hub ${spec.name}${sub ? ` ${sub.name}` : ''} --help\`)`;
}

/**
 * Parses `argv` for command `spec`: `--help` prints the usage of the sub-command it names (exit
 * 0); an unknown option, an option of another sub-command, an unknown sub-command or an argument
 * past those the table gives is named with a pointer to the right `--help` (exit 2). Returns the
 * parsed line or the exit code.
 */
export function parseCommand(spec: CommandSpec, argv: readonly string[], io: CliIo): ParsedCommand | number {
  if (wantsHelp(argv)) {
    io.stdout.write(helpFor(spec, argv));
    return 0;
  }
  let values: Record<string, Value>;
  let positionals: string[];
  try {
    ({ values, positionals } = parseArgs({ args: [...argv], options: parserOptions(spec), allowPositionals: true, strict: true }));
  } catch (err) {
    const sub = namedSub(spec, argv);
    io.stderr.write(`zcode-hub ${spec.name}${sub ? ` ${sub.name}` : ''}: ${parseArgsMessage(err)} ${seeHelp(spec, sub)}\n`);
    return 2;
  }
  if (spec.subs === undefined) return surplus(spec, undefined, positionals, io) ?? new ParsedCommand(spec, undefined, positionals, values);
  const [word, ...args] = positionals;
  if (word === 'help') {
    io.stdout.write(commandUsage(spec));
    return 0;
  }
  const name = word ?? spec.defaultSub;
  if (name === undefined) {
    io.stderr.write(`zcode-hub ${spec.name}: which one? ${spec.subs.map((s) => s.name).join(', ')}\n\n${commandUsage(spec)}`);
    return 2;
  }
  const sub = spec.subs.find((s) => s.name === name);
  if (!sub) {
    io.stderr.write(`zcode-hub ${spec.name}: unknown sub-command '${name}' ${seeHelp(spec, undefined)}\n`);
    return 2;
  }
  const foreign = Object.keys(values).find((k) => values[k] !== undefined && !sub.options.includes(k));
  if (foreign !== undefined) {
    io.stderr.write(
      `zcode-hub ${spec.name} ${sub.name}: --${foreign} is not an option of ${spec.name} ${sub.name} ${seeHelp(spec, sub)}\n`,
    );
    return 2;
  }
  const extra = surplus(spec, sub, args, io);
  if (extra !== undefined) return extra;
  const missing = (sub.required ?? []).find((k) => values[k] === undefined);
  if (missing !== undefined) {
    io.stderr.write(`zcode-hub ${spec.name} ${sub.name}: --${missing} is required ${seeHelp(spec, sub)}\n`);
    return 2;
  }
  return new ParsedCommand(spec, sub, args, values);
}

/**
 * How many positional arguments a usage's arguments (`TOKEN_ID PERSON`, `ID`) name: a bracketed
 * part (`[-- START FLAGS]`) is not the parser's, a command's runner takes it after `--` itself.
 */
export function argumentCount(args: string | undefined): number {
  return (args ?? '')
    .replace(/\[[^\]]*\]/g, ' ')
    .split(/\s+/)
    .filter(Boolean).length;
}

/** Exit 2 naming the first argument past those the table gives the (sub-)command; undefined when none is. */
function surplus(spec: CommandSpec, sub: SubCommandSpec | undefined, args: readonly string[], io: CliIo): number | undefined {
  const extra = args[argumentCount(sub ? sub.args : spec.args)];
  if (extra === undefined) return undefined;
  io.stderr.write(`zcode-hub ${spec.name}${sub ? ` ${sub.name}` : ''}: unexpected argument '${extra}' ${seeHelp(spec, sub)}\n`);
  return 2;
}

/** Whether option `o`'s value may be left out (`--json [FILE]`): given bare, it reads as ''. */
function optionalValue(o: OptionSpec): boolean {
  return o.value?.startsWith('[') ?? false;
}

/**
 * `--json` followed by nothing or by another option reads `--json=`, so node:util parseArgs (which
 * has no optional values) takes it as given without a value.
 */
function bareOptionalValues(spec: CommandSpec, argv: readonly string[]): string[] {
  const optional = new Set(
    Object.entries(spec.options)
      .filter(([, o]) => optionalValue(o))
      .map(([n]) => `--${n}`),
  );
  const end = argv.indexOf('--');
  return argv.map((a, i) => ((end === -1 || i < end) && optional.has(a) && (argv[i + 1]?.startsWith('-') ?? true) ? `${a}=` : a));
}

/**
 * Parses the line of a command that also takes every start flag (`doctor`): its own options from
 * its table entry, the start flags handed back as they were given for loadConfig (which checks
 * their values). An unknown option or a surplus argument: exit 2, as parseCommand.
 */
export function parseWithStartFlags(
  spec: CommandSpec,
  argv: readonly string[],
  io: CliIo,
): { line: ParsedCommand; startArgs: string[] } | number {
  if (wantsHelp(argv)) {
    io.stdout.write(helpFor(spec, argv));
    return 0;
  }
  let parsed;
  try {
    parsed = parseArgs({
      args: bareOptionalValues(spec, argv),
      options: { ...START_FLAGS, ...parserOptions(spec) },
      allowPositionals: true,
      strict: true,
      tokens: true,
    });
  } catch (err) {
    io.stderr.write(`zcode-hub ${spec.name}: ${parseArgsMessage(err)} ${seeHelp(spec, undefined)}\n`);
    return 2;
  }
  const own: Record<string, Value> = {};
  const startArgs: string[] = [];
  for (const t of parsed.tokens)
    if (t.kind === 'option' && t.name in spec.options) own[t.name] = parsed.values[t.name];
    else if (t.kind === 'option') startArgs.push(`--${t.name}=${t.value ?? ''}`);
  return (
    surplus(spec, undefined, parsed.positionals, io) ?? { line: new ParsedCommand(spec, undefined, parsed.positionals, own), startArgs }
  );
}
