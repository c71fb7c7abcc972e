import { z } from 'zod';
import { authorLabel } from '../auth/people.js';
import { LIMITS } from '../limits.js';
import { policySchemas, type Rule } from '../policy/rule-schema.js';
import { callDaemon, findDaemon } from './daemon-client.js';
import { parseCommand, type CliIo } from './command-args.js';
import { readRulesFile } from './policy-file.js';
import { commandSpec } from './commands.js';
import { resolveStateDir } from './token.js';

const SPEC = commandSpec('policy')!;

const grantsSchema = z.object({
  revision: z.number(),
  grants: z.array(
    z.looseObject({
      id: z.string(),
      toolName: z.string(),
      ruleContent: z.string().optional(),
      workspace: z.string(),
      by: z.looseObject({ person: z.string(), device: z.string(), client: z.string().optional() }),
      at: z.number(),
    }),
  ),
});

function describeGrant(g: z.infer<typeof grantsSchema>['grants'][number]): string {
  const who = `${authorLabel(g.by.person, g.by.device)}${g.by.client === undefined ? '' : ` (${g.by.client})`}`;
  return `${g.id}  ${g.toolName}${g.ruleContent === undefined ? '' : ` ${g.ruleContent}`}  by ${who} on ${new Date(g.at).toISOString()}  in ${g.workspace}\n`;
}

const { policy: policySchema } = policySchemas(LIMITS);
const checkSchema = z.object({
  ruleId: z.string().nullable(),
  decision: z.string(),
  approvers: z.looseObject({ waitingFor: z.string() }),
});

function whoOf(a: NonNullable<Rule['approvers']>): string {
  return [...(a.scopes ?? []), ...(a.people ?? []), ...(a.originator ? ['originator'] : [])].join('|');
}

function describeRule(r: Rule, i: number): string {
  const m = Object.entries(r.match)
    .map(([k, v]) => `${k}=${Array.isArray(v) ? v.join(',') : String(v)}`)
    .join(' ');
  const who = r.approvers ? ` by ${whoOf(r.approvers)}` : '';
  const a = r.always;
  const always = a === undefined ? '' : ` always-allow by ${a === false ? 'nobody' : whoOf(a) || 'any answerer'}`;
  const extra = `${r.quorum ? ` quorum ${r.quorum}` : ''}${r.localOnly ? ' local only' : ''}${always}`;
  return `${i + 1}. ${r.id}: ${r.decide}${who}${extra}  when ${m || 'always'}${r.description ? `  — ${r.description}` : ''}\n`;
}

/** `zcode-hub policy show|set|check|grants|revoke` (docs/SECURITY.md "Approval rules", "Always allow"). Returns the exit code. */
export async function runPolicyCli(argv: string[], io: CliIo): Promise<number> {
  const line = parseCommand(SPEC, argv, io);
  if (typeof line === 'number') return line;
  const action = line.sub?.name;
  const [file] = line.args;
  const v: PolicyFlags = {
    json: line.flag('json'),
    revision: line.string('revision'),
    tool: line.string('tool'),
    command: line.string('command'),
    path: line.string('path'),
    kind: line.string('kind'),
    session: line.string('session'),
  };
  const wrong = usageProblem(action, file, v);
  if (wrong) {
    io.stderr.write(`${wrong}\n`);
    return 2;
  }
  const revision = v.revision === undefined ? undefined : Number(v.revision);
  // The file is checked before the hub is looked for: a broken file is said at once, hub or not.
  const fromFile = action === 'set' && file ? readRulesFile(file) : undefined;
  if (fromFile && 'problem' in fromFile) {
    io.stderr.write(`zcode-hub policy set: ${fromFile.problem}\n`);
    return 2;
  }
  const daemon = findDaemon(resolveStateDir(line.string('state-dir'), io.env));
  if (!daemon) {
    io.stderr.write('zcode-hub policy: no running hub for this state dir (start it with zcode-hub start)\n');
    return 1;
  }
  try {
    if (fromFile) {
      const stored = policySchema.parse(
        await callDaemon(daemon, 'PUT', '/api/policy', { rules: fromFile.rules, ...(revision === undefined ? {} : { revision }) }),
      );
      io.stdout.write(
        v.json ? `${JSON.stringify(stored)}\n` : `policy revision ${stored.revision}: ${stored.rules.length} rule(s), in force now\n`,
      );
      return 0;
    }
    if (action === 'grants') {
      const listed = grantsSchema.parse(await callDaemon(daemon, 'GET', '/api/policy/grants'));
      if (v.json) io.stdout.write(`${JSON.stringify(listed)}\n`);
      else if (listed.grants.length === 0) io.stdout.write('no "always allow" grants: every request is decided by the rules or asked\n');
      else for (const g of listed.grants) io.stdout.write(describeGrant(g));
      return 0;
    }
    if (action === 'revoke' && file) {
      await callDaemon(daemon, 'DELETE', `/api/policy/grants/${encodeURIComponent(file)}`);
      io.stdout.write(`removed ${file}: the next such request is asked again\n`);
      return 0;
    }
    if (action === 'check') return await checkRequest(daemon, v, io);
    const current = policySchema.parse(await callDaemon(daemon, 'GET', '/api/policy'));
    if (v.json) io.stdout.write(`${JSON.stringify(current)}\n`);
    else {
      io.stdout.write(`revision ${current.revision}\n`);
      if (current.rules.length === 0) io.stdout.write('no rules: every operator is asked, first answer wins\n');
      current.rules.forEach((r, i) => {
        io.stdout.write(describeRule(r, i));
      });
    }
    return 0;
  } catch (err) {
    io.stderr.write(`zcode-hub policy ${action}: ${(err as Error).message}\n`);
    return 1;
  }
}

/** What is wrong with the arguments, said before anything is read or asked (exit 2); undefined when nothing is. */
function usageProblem(action: string | undefined, file: string | undefined, v: PolicyFlags): string | undefined {
  if ((action === 'set' || action === 'revoke') && !file)
    return `zcode-hub policy ${action}: give the ${action === 'set' ? 'FILE' : 'grant ID (see zcode-hub policy grants)'} (see \`zcode-hub policy ${action} --help\`)`;
  if (action === 'check' && (v.tool === undefined) === (v.kind === undefined))
    return 'zcode-hub policy check: give either --tool NAME or --kind question|plan (see `zcode-hub policy check --help`)';
  if (v.revision !== undefined && !Number.isInteger(Number(v.revision))) return 'zcode-hub policy: --revision takes a whole number';
  return undefined;
}

/** The flags of `zcode-hub policy`, as given. */
interface PolicyFlags {
  json: boolean;
  revision: string | undefined;
  tool: string | undefined;
  command: string | undefined;
  path: string | undefined;
  kind: string | undefined;
  session: string | undefined;
}

/** `policy check`: the dry run of one request (a tool with its command or path, or a question or plan) against the rules in force. */
async function checkRequest(daemon: NonNullable<ReturnType<typeof findDaemon>>, v: PolicyFlags, io: CliIo): Promise<number> {
  const request =
    v.tool === undefined
      ? { kind: v.kind }
      : {
          tool: v.tool,
          input: { ...(v.command === undefined ? {} : { command: v.command }), ...(v.path === undefined ? {} : { file_path: v.path }) },
        };
  const result = checkSchema.parse(
    await callDaemon(daemon, 'POST', '/api/policy/check', { request, ...(v.session === undefined ? {} : { sessionId: v.session }) }),
  );
  io.stdout.write(
    v.json
      ? `${JSON.stringify(result)}\n`
      : `${result.ruleId === null ? 'no rule matches' : `rule ${result.ruleId}`}: ${result.decision} (${result.approvers.waitingFor})\n`,
  );
  return 0;
}
