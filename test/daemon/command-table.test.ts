import { describe, expect, it } from 'vitest';
import { START_FLAGS } from '../../src/config/load.js';
import { argumentCount, parseCommand, parserOptions, ParsedCommand, parseWithStartFlags } from '../../src/cli/command-args.js';
import { COMMAND_SPECS, START_FLAG_HELP, commandSpec } from '../../src/cli/commands.js';
import { commandUsage, namedSub, subCommandUsage, topUsage } from '../../src/cli/usage.js';
import { collector } from '../helpers/cli-io.js';

/** The command table is the one source of the parsers and of the usage texts: they cannot drift. */

describe('the command table', () => {
  it('every option a parser accepts is in the usage that covers it, with its default', () => {
    for (const spec of COMMAND_SPECS) {
      const parsed = Object.keys(parserOptions(spec)).filter((o) => o !== 'help');
      expect(parsed, spec.name).toEqual(Object.keys(spec.options));
      if (!spec.subs) {
        const usage = commandUsage(spec);
        for (const o of parsed) expect(usage, `${spec.name} --${o}`).toMatch(new RegExp(`^ {2}--${o}\\b`, 'm'));
        continue;
      }
      // Each option belongs to some sub-command, and each sub-command lists only the command's options.
      for (const o of parsed)
        expect(
          spec.subs.some((s) => s.options.includes(o)),
          `${spec.name} --${o}`,
        ).toBe(true);
      for (const sub of spec.subs) {
        const usage = subCommandUsage(spec, sub).replace(/\s+/g, ' ');
        for (const o of sub.options) {
          expect(Object.keys(spec.options), `${spec.name} ${sub.name} --${o}`).toContain(o);
          expect(usage, `${spec.name} ${sub.name} --${o}`).toContain(` --${o}`);
          const byDefault = spec.options[o]!.default;
          if (byDefault !== undefined) expect(usage).toContain(`(default: ${byDefault})`);
        }
      }
      if (spec.defaultSub !== undefined) expect(spec.subs.map((s) => s.name)).toContain(spec.defaultSub);
    }
  });

  it('names the default sub-command once, in the usage of its command and in its own: a summary does not say it again', () => {
    for (const spec of COMMAND_SPECS) {
      if (spec.defaultSub === undefined) continue;
      for (const sub of spec.subs ?? []) expect(sub.summary, `${spec.name} ${sub.name}`).not.toContain('(the default)');
      expect(commandUsage(spec).match(/\(the default\)/g), spec.name).toHaveLength(1);
      const byDefault = spec.subs?.find((s) => s.name === spec.defaultSub);
      expect(subCommandUsage(spec, byDefault!).match(/\(the default\)/g), `${spec.name} ${spec.defaultSub}`).toHaveLength(1);
    }
  });

  it('every start flag has its help, of the same kind as the flag the config parser reads', () => {
    expect(Object.keys(START_FLAG_HELP).sort()).toEqual(Object.keys(START_FLAGS).sort());
    const parser = parserOptions(commandSpec('start')!);
    for (const [name, flag] of Object.entries(START_FLAGS)) {
      expect(parser[name]?.type, name).toBe(flag.type);
      expect(parser[name]?.multiple ?? false, name).toBe('multiple' in flag && flag.multiple);
    }
  });

  it('the top-level usage lists each command with its sub-commands', () => {
    const top = topUsage('9.9.9');
    expect(top).toContain('zcode-hub 9.9.9');
    for (const spec of COMMAND_SPECS)
      expect(top).toContain(`zcode-hub ${spec.name}${spec.subs ? ` ${spec.subs.map((s) => s.name).join('|')}` : ''}`);
  });

  it('the sub-command a line names: option values skipped, an option-looking value not taken', () => {
    const token = commandSpec('token')!;
    expect(namedSub(token, ['--state-dir', 'list', 'create'])?.name).toBe('create');
    expect(namedSub(token, ['--state-dir=/x', 'list'])?.name).toBe('list');
    expect(namedSub(token, ['--json', 'revoke', 'id'])?.name).toBe('revoke');
    expect(namedSub(token, ['--scope', '--help', 'create'])?.name).toBe('create');
    expect(namedSub(token, ['--', 'create'])).toBeUndefined();
    expect(namedSub(token, ['frob', 'create'])).toBeUndefined();
  });
});

describe('parseCommand', () => {
  const token = commandSpec('token')!;
  const people = commandSpec('people')!;

  it('--help prints the usage of the sub-command named, anywhere before --', () => {
    const io = collector();
    expect(parseCommand(token, ['--state-dir', '/x', 'revoke', '-h'], io)).toBe(0);
    expect(io.out()).toBe(subCommandUsage(token, token.subs![2]!));
    const top = collector();
    expect(parseCommand(token, ['help'], top)).toBe(0);
    expect(top.out()).toBe(commandUsage(token));
  });

  it('a sub-command, its arguments and options; the default one when none is named', () => {
    const line = parseCommand(token, ['revoke', 'abc', '--state-dir', '/x', '--json'], collector());
    expect(line).toBeInstanceOf(ParsedCommand);
    const parsed = line as ParsedCommand;
    expect([parsed.sub?.name, parsed.args, parsed.string('state-dir'), parsed.flag('json'), parsed.string('scope')]).toEqual([
      'revoke',
      ['abc'],
      '/x',
      true,
      undefined,
    ]);
    expect(() => parsed.string('colour')).toThrow(/no option --colour/);
    expect((parseCommand(people, ['--json'], collector()) as ParsedCommand).sub?.name).toBe('list');
    expect([argumentCount('TOKEN_ID PERSON'), argumentCount('ID'), argumentCount('[-- START FLAGS]'), argumentCount(undefined)]).toEqual([
      2, 1, 0, 0,
    ]);
  });

  it('bad lines: exit 2 and one line naming the sub-command and its --help', () => {
    const cases: Array<[string[], string]> = [
      [['create', '--colour', 'red'], "zcode-hub token create: unknown option '--colour' (see `zcode-hub token create --help`)\n"],
      [['list', '--ttl', '7d'], 'zcode-hub token list: --ttl is not an option of token list (see `zcode-hub token list --help`)\n'],
      [['create', '--name', 'x'], 'zcode-hub token create: --scope is required (see `zcode-hub token create --help`)\n'],
      [['create', '--name'], "zcode-hub token create: option '--name <value>' argument missing (see `zcode-hub token create --help`)\n"],
      [['frob'], "zcode-hub token: unknown sub-command 'frob' (see `zcode-hub token --help`)\n"],
      [['revoke', 'id1', 'id2'], "zcode-hub token revoke: unexpected argument 'id2' (see `zcode-hub token revoke --help`)\n"],
      [['list', '--json', 'all'], "zcode-hub token list: unexpected argument 'all' (see `zcode-hub token list --help`)\n"],
    ];
    for (const [argv, message] of cases) {
      const io = collector();
      expect(parseCommand(token, argv, io), argv.join(' ')).toBe(2);
      expect({ out: io.out(), err: io.err() }).toEqual({ out: '', err: message });
    }
  });
});

describe('parseWithStartFlags (doctor: its own options from the table, every start flag passed on)', () => {
  const doctor = commandSpec('doctor')!;
  const parse = (argv: string[]) => {
    const io = collector();
    return { r: parseWithStartFlags(doctor, argv, io), err: io.err() };
  };

  it('each option of the table is parsed as its own; the start flags come back for loadConfig, in order', () => {
    const { r } = parse([
      '--probe',
      '--state-dir',
      '/x',
      '--daemon',
      '--probe-no-prompt',
      '--json',
      'p.json',
      '--workspace=/a',
      '--workspace',
      '/b',
    ]);
    const { line, startArgs } = r as Exclude<typeof r, number>;
    expect(Object.keys(doctor.options).map((o) => [o, o === 'json' ? line.string(o) : line.flag(o)])).toEqual([
      ['json', 'p.json'],
      ['probe', true],
      ['daemon', true],
      ['probe-no-prompt', true],
    ]);
    expect(startArgs).toEqual(['--state-dir=/x', '--workspace=/a', '--workspace=/b']);
  });

  it('an optional value (--json [FILE]) given bare, before another option or last, reads as given without one', () => {
    for (const argv of [['--json'], ['--json', '--state-dir', '/x'], ['--json=']]) {
      const { r } = parse(argv);
      expect((r as Exclude<typeof r, number>).line.string('json'), argv.join(' ')).toBe('');
    }
    const { r } = parse(['--state-dir', '/x']);
    expect((r as Exclude<typeof r, number>).line.string('json')).toBeUndefined();
  });

  it('an unknown option or an argument: exit 2, named, with the pointer to doctor --help', () => {
    expect(parse(['--probe', '--colour'])).toEqual({
      r: 2,
      err: "zcode-hub doctor: unknown option '--colour' (see `zcode-hub doctor --help`)\n",
    });
    expect(parse(['--probe', 'extra'])).toEqual({
      r: 2,
      err: "zcode-hub doctor: unexpected argument 'extra' (see `zcode-hub doctor --help`)\n",
    });
    expect(parse(['--port'])).toEqual({
      r: 2,
      err: "zcode-hub doctor: option '--port <value>' argument missing (see `zcode-hub doctor --help`)\n",
    });
  });
});
