import fs from 'node:fs';
import { parseArgs } from 'node:util';
import { z } from 'zod';
import { authorLabel } from '../auth/people.js';
import { LIMITS } from '../limits.js';
import { policySchemas, type Rule } from '../policy/rule-schema.js';
import { callDaemon, findDaemon } from './daemon-client.js';
import { resolveStateDir, type CliIo } from './token.js';

const USAGE = `Usage:
  zcode-hub policy [show] [--json]                 the approval rules in force, in order
  zcode-hub policy set FILE [--revision N]         replace them with FILE's (JSON: {rules} or [rules])
  zcode-hub policy check --tool NAME [--command CMD] [--path P] [--session ID]
  zcode-hub policy check --kind question|plan [--session ID]
                                                   which rule would decide such a request (dry run)
  zcode-hub policy grants [--json]                 the "always allow" grants the hub keeps: who, when, what
  zcode-hub policy revoke ID                       remove one; that request is asked again from the next one
Common: [--state-dir DIR] [--json]. Admin, through the running daemon (applied to the next
request). The first matching rule decides: allow, deny, or ask only the approvers it names;
no match asks every operator (docs/SECURITY.md "Approval rules", docs/policy.example.json).
--revision refuses the change when someone else changed the rules since (409). "Always allow"
is kept by the hub, not the agent (docs/SECURITY.md "Always allow").
`;

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
const fileSchema = z.union([z.array(z.unknown()), z.looseObject({ rules: z.array(z.unknown()), revision: z.number().optional() })]);

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
  let parsed;
  try {
    parsed = parseArgs({
      args: argv,
      options: {
        'state-dir': { type: 'string' },
        json: { type: 'boolean' },
        revision: { type: 'string' },
        tool: { type: 'string' },
        command: { type: 'string' },
        path: { type: 'string' },
        kind: { type: 'string' },
        session: { type: 'string' },
        help: { type: 'boolean', short: 'h' },
      },
      allowPositionals: true,
      strict: true,
    });
  } catch (err) {
    io.stderr.write(`zcode-hub policy: ${(err as Error).message}\n\n${USAGE}`);
    return 2;
  }
  const v = parsed.values;
  if (v.help) {
    io.stdout.write(USAGE);
    return 0;
  }
  const [action = 'show', file] = parsed.positionals;
  const badCheck = action === 'check' && (v.tool === undefined) === (v.kind === undefined);
  if (!['show', 'set', 'check', 'grants', 'revoke'].includes(action) || ((action === 'set' || action === 'revoke') && !file) || badCheck) {
    io.stderr.write(USAGE);
    return 2;
  }
  const revision = v.revision === undefined ? undefined : Number(v.revision);
  if (revision !== undefined && !Number.isInteger(revision)) {
    io.stderr.write(`zcode-hub policy: --revision takes a whole number\n`);
    return 2;
  }
  const daemon = findDaemon(resolveStateDir(v['state-dir'], io.env));
  if (!daemon) {
    io.stderr.write('zcode-hub policy: no running hub for this state dir (start it with zcode-hub start)\n');
    return 1;
  }
  try {
    if (action === 'set' && file) {
      const body = fileSchema.parse(JSON.parse(fs.readFileSync(file, 'utf8')));
      const rules = Array.isArray(body) ? body : body.rules;
      const stored = policySchema.parse(
        await callDaemon(daemon, 'PUT', '/api/policy', { rules, ...(revision === undefined ? {} : { revision }) }),
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
    if (action === 'check') {
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
    io.stderr.write(`zcode-hub policy: ${(err as Error).message}\n`);
    return 1;
  }
}
