/**
 * The shape of the CLI's command table (src/cli/commands.ts): what a command and each of its
 * sub-commands take. The usage texts (src/cli/usage.ts) and the option parsers
 * (src/cli/command-args.ts) both come from it, so an option cannot be parsed without being shown
 * in `--help`, nor shown without being parsed.
 */

/** One option of a command. */
export interface OptionSpec {
  /** The value's placeholder (`NAME`, `view|operate|admin`); absent for a switch. */
  value?: string;
  /** Given more than once, each adds one. */
  multiple?: boolean;
  short?: string;
  /** The default as a user would type it; absent when there is none. */
  default?: string;
  help: string;
}

/** One sub-command (`token create`). */
export interface SubCommandSpec {
  name: string;
  /** Its positional arguments as shown (`ID`, `TOKEN_ID PERSON`). */
  args?: string;
  summary: string;
  /** The command's options it takes; the others are refused with a pointer to its `--help`. */
  options: readonly string[];
  /** Options it cannot do without (shown without brackets). */
  required?: readonly string[];
  /** Other valid shapes of the same sub-command, shown as extra usage lines. */
  alternatives?: readonly string[];
  example: string;
}

/** One command (`token`), with its sub-commands or, when it has none, its own usage. */
export interface CommandSpec {
  name: string;
  /** Its line in `zcode-hub --help`. */
  summary: string;
  options: Readonly<Record<string, OptionSpec>>;
  /** Its sub-commands; the first word that is not an option names one. */
  subs?: readonly SubCommandSpec[];
  /** The sub-command run when none is named (`people` → `list`); none: naming one is required. */
  defaultSub?: string;
  /** A command without sub-commands: its positional arguments, as shown. */
  args?: string;
  /** A command without sub-commands: the options of its synopsis (in order); default: all. */
  synopsis?: readonly string[];
  /** Extra usage lines (other shapes of the command). */
  alternatives?: readonly string[];
  /** What it does, a few lines. */
  about?: string;
  /** Also takes every start flag (`zcode-hub start --help` lists them). */
  takesStartFlags?: boolean;
  /** A command without sub-commands: one example. */
  example?: string;
  /** Answers `--help` itself, from a flag table of its own (the simulator's). */
  ownHelp?: boolean;
}
