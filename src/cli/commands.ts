import type { START_FLAGS } from '../config/load.js';
import { LIMITS } from '../limits.js';
import type { CommandSpec, OptionSpec } from './command-spec.js';

/**
 * Every command and sub-command of `zcode-hub`, with its options, their defaults and an
 * example: the one source of `zcode-hub … --help` and of the option parsers (command-spec.ts).
 */

const STATE_DIR: OptionSpec = {
  value: 'DIR',
  default: '$ZCODE_HUB_STATE_DIR, else ~/.zcode-hub',
  help: 'the hub whose state dir this is (its tokens, hub.json, admin.token)',
};
const JSON_OUT: OptionSpec = { help: 'print JSON instead of text' };

const days = (ms: number): string => `${Math.round(ms / 86_400_000)}d`;

/** What every start flag means; typed by START_FLAGS, so a flag without its help does not compile. */
export const START_FLAG_HELP: { readonly [K in keyof typeof START_FLAGS]: OptionSpec } = {
  host: { value: 'HOST', default: '127.0.0.1', help: 'bind address; anything but loopback needs TLS or a tunnel in front' },
  port: { value: 'PORT', default: '8377', help: 'port to listen on; 0 picks a free one (written to hub.json)' },
  'state-dir': { value: 'DIR', default: '~/.zcode-hub', help: 'tokens, hub.json, audit log, rules, turns in flight (0700)' },
  backend: {
    value: 'auto|zcode|sim',
    default: 'auto',
    help: 'the agent: auto runs the ZCode CLI when one is found, else the bundled simulator',
  },
  'zcode-cli': { value: 'PATH', default: 'auto-detected', help: 'the ZCode CLI (zcode.cjs, its install folder, or an executable)' },
  'zcode-node': { value: 'PATH', default: 'auto-detected', help: 'the Node.js (24 or newer) that runs zcode.cjs' },
  workspace: {
    value: 'DIR',
    multiple: true,
    default: 'the current dir',
    help: 'a workspace root; repeat for several, the first is the default for new sessions',
  },
  name: { value: 'NAME', default: 'the host name', help: "this machine's name in the app" },
  'public-url': { value: 'URL', help: 'the address devices reach this hub at (a tunnel, a LAN address)' },
  peer: { value: 'ORIGIN', multiple: true, help: "an app origin this hub accepts (another hub's web app)" },
  'allow-origin': { value: 'ORIGIN', multiple: true, help: 'an alias of --peer' },
  scenario: { value: 'NAME', default: 'default', help: 'the simulator scenario (zcode-hub sim --help lists them)' },
  'sim-arg': { value: 'FLAG', multiple: true, help: 'a flag passed to the simulator child (fault switches, for tests)' },
  'default-mode': { value: 'MODE', default: 'build', help: 'mode of new sessions: plan, build, edit, yolo, guarded or auto' },
  'provider-file': { value: 'PATH', default: '~/.zcode/v2/provider_config.json', help: 'personal provider file shared with ZCode Desktop' },
  'builtin-provider-file': { value: 'PATH', default: "the CLI's own", help: 'built-in provider file handed to the agent' },
  'admin-token-file': { value: 'FILE', help: 'read the admin token from FILE (a container secret) instead of generating one' },
  'tls-cert': { value: 'FILE', help: 'serve HTTPS (and HTTP/2) with this certificate; needs --tls-key' },
  'tls-key': { value: 'FILE', help: 'the private key of --tls-cert' },
  'trust-proxy': { value: 'N', default: '0', help: 'proxy hops to trust for the client address (a tunnel on loopback: 1)' },
  'log-level': { value: 'LEVEL', default: 'info', help: 'fatal, error, warn, info, debug, trace or silent' },
  'record-wire': {
    value: 'FILE',
    help: 'write every message between the hub and the agent to FILE (NDJSON, 0600, secrets redacted) for a bug report',
  },
  config: { value: 'FILE', help: 'a JSON config file (flags win over the environment, which wins over the file)' },
};

const DEVICE_OPTIONS = ['state-dir', 'json'] as const;

/** The commands, in the order `zcode-hub --help` lists them. */
export const COMMAND_SPECS: readonly CommandSpec[] = [
  {
    name: 'start',
    summary: 'run the daemon in the foreground (the default command)',
    options: START_FLAG_HELP,
    synopsis: ['host', 'port', 'state-dir', 'backend', 'workspace', 'public-url', 'config'],
    about: `Runs the daemon in the foreground until SIGINT/SIGTERM. With --backend auto it runs the ZCode
CLI when one is found and the bundled simulator otherwise. Every flag also reads
ZCODE_HUB_<NAME> from the environment (e.g. ZCODE_HUB_PORT).`,
    example: 'zcode-hub start --workspace ~/code/my-project',
  },
  {
    name: 'stop',
    summary: 'stop the running daemon of a state dir (one the editor bridge started, too)',
    options: { 'state-dir': STATE_DIR },
    about: `Asks the daemon of the state dir to stop (SIGTERM, as Ctrl-C does: a turn it is running ends,
its partial answer kept and marked interrupted) and waits for it to exit, up to ${LIMITS.stopWaitMs / 1000} s.
No hub running is not an error.`,
    example: 'zcode-hub stop',
  },
  {
    name: 'token',
    summary: 'device tokens: create one, list them, revoke one',
    options: {
      'state-dir': STATE_DIR,
      json: JSON_OUT,
      scope: { value: 'view|operate|admin', help: 'what the token may do: read, also prompt and answer, also administer' },
      name: { value: 'NAME', help: 'the device, as lists show it' },
      person: { value: 'PERSON', default: 'a new person named after the token', help: 'whose device it is (zcode-hub people)' },
      ttl: {
        value: 'DURATION',
        default: days(LIMITS.deviceTokenDefaultTtlMs),
        help: 'how long it lives: 30m, 12h, 7d, 2w (at most a year)',
      },
    },
    about: `Talks to the running daemon (hub.json + admin.token); works on the state dir directly when
no daemon runs.`,
    subs: [
      {
        name: 'create',
        summary: 'a new device token, printed once on stdout (the note on stderr)',
        options: ['scope', 'name', 'person', 'ttl', ...DEVICE_OPTIONS],
        required: ['scope', 'name'],
        example: 'zcode-hub token create --scope operate --name "Ann\'s phone" --person ann',
      },
      {
        name: 'list',
        summary: 'every token: id, name, person, scope, state, dates',
        options: DEVICE_OPTIONS,
        example: 'zcode-hub token list',
      },
      {
        name: 'revoke',
        args: 'ID',
        summary: 'revoke a token at once (its sockets close); ID from token list',
        options: DEVICE_OPTIONS,
        example: 'zcode-hub token revoke 6c377590-f86e-4e5a-b775-264f55922b58',
      },
    ],
  },
  {
    name: 'people',
    summary: 'whose device each token is (shown beside prompts and answers)',
    options: { 'state-dir': STATE_DIR, json: JSON_OUT },
    defaultSub: 'list',
    about: `A token's person is who the hub shows beside its prompts and answers (docs/SECURITY.md
"People"); only an admin sets it. Talks to the running daemon; works on the state dir directly
when no daemon runs.`,
    subs: [
      {
        name: 'list',
        summary: 'people and their device tokens',
        options: DEVICE_OPTIONS,
        example: 'zcode-hub people list --json',
      },
      {
        name: 'set',
        args: 'TOKEN_ID PERSON',
        summary: 'give a device token to another person',
        options: DEVICE_OPTIONS,
        example: 'zcode-hub people set 6c377590-f86e-4e5a-b775-264f55922b58 ann',
      },
    ],
  },
  {
    name: 'pair',
    summary: 'a one-time pairing code + URL + QR in the terminal, or add this machine to another app',
    options: {
      scope: { value: 'view|operate|admin', default: 'operate', help: 'what the paired device may do' },
      person: { value: 'PERSON', default: 'a new person named after the device', help: 'whose device it is' },
      into: {
        value: 'ORIGIN',
        help: "add this machine to the app served at ORIGIN (another hub's web app) instead; operate or view only",
      },
      'no-qr': { help: 'no QR code, only the code and the URL' },
      'state-dir': STATE_DIR,
      json: JSON_OUT,
    },
    synopsis: ['scope', 'person', 'no-qr', 'json', 'state-dir'],
    alternatives: ['zcode-hub pair --into ORIGIN [--scope operate|view] [--no-qr] [--json] [--state-dir DIR]'],
    about: `Asks the running daemon for a one-time pairing code (${LIMITS.pairingCodeTtlMs / 60_000} minutes, single use) and prints it
with a URL and a QR code: open the URL on the device, or type the code into the web app.
With --into, ORIGIN becomes a peer of this hub and the link opens that app on "Add <this machine>?".`,
    example: 'zcode-hub pair --person ann',
  },
  {
    name: 'public-url',
    summary: 'another public address (a tunnel) without a restart',
    options: { 'state-dir': STATE_DIR },
    about: 'Tells the running daemon another address it answers to; kept across restarts.',
    subs: [
      {
        name: 'add',
        args: 'URL',
        summary: 'the hub answers to URL from now on',
        options: ['state-dir'],
        example: 'zcode-hub public-url add https://my-hub.trycloudflare.com',
      },
      {
        name: 'remove',
        args: 'URL',
        summary: 'forget an added URL',
        options: ['state-dir'],
        example: 'zcode-hub public-url remove https://my-hub.trycloudflare.com',
      },
      { name: 'list', summary: 'the configured URL and the added ones', options: ['state-dir'], example: 'zcode-hub public-url list' },
    ],
  },
  {
    name: 'peers',
    summary: 'app origins this hub accepts (--allow-origin is an alias of --peer)',
    options: { 'state-dir': STATE_DIR, json: JSON_OUT },
    about: `The app origins this hub accepts (CORS, the WebSocket Origin check, adding this machine from
another hub's app). Talks to the running daemon (applied at once); without one, edits
<state-dir>/peers.json for the next start. Origins given with --peer are listed but can only be
dropped by restarting without the flag.`,
    subs: [
      {
        name: 'add',
        args: 'ORIGIN',
        summary: 'accept ORIGIN',
        options: DEVICE_OPTIONS,
        example: 'zcode-hub peers add https://home.example.net',
      },
      {
        name: 'remove',
        args: 'ORIGIN',
        summary: 'refuse ORIGIN from its next request',
        options: DEVICE_OPTIONS,
        example: 'zcode-hub peers remove https://home.example.net',
      },
      { name: 'list', summary: 'the accepted origins and how each was added', options: DEVICE_OPTIONS, example: 'zcode-hub peers list' },
    ],
  },
  {
    name: 'policy',
    summary: 'approval rules: who may answer which request (admin)',
    options: {
      'state-dir': STATE_DIR,
      json: JSON_OUT,
      revision: { value: 'N', help: 'refuse the change when the rules changed since revision N (409)' },
      tool: { value: 'NAME', help: 'the tool a request would run (Bash, Edit, …)' },
      command: { value: 'CMD', help: 'the command it would run' },
      path: { value: 'P', help: 'the file it would touch' },
      kind: { value: 'question|plan', help: 'a question or a plan instead of a tool' },
      session: { value: 'ID', help: 'as asked in this session (rules may match its workspace)' },
    },
    defaultSub: 'show',
    about: `Admin, through the running daemon (applied to the next request). The first matching rule
decides: allow, deny, or ask only the approvers it names; no match asks every operator
(docs/SECURITY.md "Approval rules", docs/policy.example.json). "Always allow" grants are kept
by the hub, not the agent (docs/SECURITY.md "Always allow").`,
    subs: [
      {
        name: 'show',
        summary: 'the approval rules in force, in order',
        options: DEVICE_OPTIONS,
        example: 'zcode-hub policy show',
      },
      {
        name: 'set',
        args: 'FILE',
        summary: "replace the rules with FILE's (JSON: {rules} or [rules])",
        options: ['revision', ...DEVICE_OPTIONS],
        example: 'zcode-hub policy set docs/policy.example.json',
      },
      {
        name: 'check',
        summary: 'which rule would decide such a request (a dry run)',
        options: ['tool', 'command', 'path', 'kind', 'session', ...DEVICE_OPTIONS],
        alternatives: ['(give --tool NAME [--command CMD] [--path P], or --kind question|plan)'],
        example: 'zcode-hub policy check --tool Bash --command "rm -rf build"',
      },
      {
        name: 'grants',
        summary: 'the "always allow" grants the hub keeps: who, when, what',
        options: DEVICE_OPTIONS,
        example: 'zcode-hub policy grants',
      },
      {
        name: 'revoke',
        args: 'ID',
        summary: 'remove a grant; that request is asked again from the next one',
        options: DEVICE_OPTIONS,
        example: 'zcode-hub policy revoke g_3f9a1c0b7d2e',
      },
    ],
  },
  {
    name: 'acp',
    summary: 'ACP agent on stdio for editors (starts the daemon if needed)',
    options: {},
    takesStartFlags: true,
    about: `An ACP agent on stdio for editors (stdout carries protocol lines only, notes go to stderr).
Attaches to the daemon of the state dir, starting it when none runs (on the host and port it
last ran on); that daemon keeps running after the editor closes (zcode-hub stop stops it).
Closing stdin detaches; the daemon and its turns live on.`,
    example: 'zcode-hub acp --state-dir ~/.zcode-hub',
  },
  {
    name: 'doctor',
    summary: 'health and exposure report; --probe checks the agent against what the hub expects',
    options: {
      json: { value: '[FILE]', help: 'the report as JSON on stdout; with --probe, written to FILE' },
      probe: { help: 'start a child of the backend the start flags choose and walk a scripted conversation with it' },
      daemon: { help: 'with --probe: have the running daemon probe its own backend (as Settings › Doctor does)' },
      'probe-no-prompt': { help: 'with --probe: skip the prompt (no model call)' },
    },
    takesStartFlags: true,
    synopsis: ['json'],
    alternatives: ['zcode-hub doctor --probe [--json FILE] [--probe-no-prompt] [--daemon] [START FLAGS]'],
    about: `Asks the running daemon for its live report, or checks the configuration the start flags
describe when none runs. Exits 1 when a check fails. --probe prints what answered as the hub
expects: ok, differs (field path and value seen) or missing.`,
    example: 'zcode-hub doctor --probe --json probe.json',
  },
  {
    name: 'service',
    summary: 'systemd user unit / launchd agent that keeps the daemon running',
    options: { 'no-activate': { help: 'only write (or only remove) the unit file; do not start or stop it' } },
    about: `A systemd user unit (Linux) or a launchd agent (macOS) that keeps the daemon running.
Flags after -- are the daemon's start flags (zcode-hub start --help).`,
    subs: [
      {
        name: 'install',
        args: '[-- START FLAGS]',
        summary: 'write the unit (pinning this folder as the default workspace) and start it',
        options: ['no-activate'],
        example: 'zcode-hub service install -- --workspace ~/code/my-project',
      },
      { name: 'uninstall', summary: 'stop the unit and remove its file', options: ['no-activate'], example: 'zcode-hub service uninstall' },
      {
        name: 'status',
        summary: 'whether the unit is installed and running; exit 3 when not installed',
        options: [],
        example: 'zcode-hub service status',
      },
    ],
  },
  {
    // The simulator answers `zcode-hub sim --help` itself, from its own flag table
    // (src/simulator/options.ts), which is also the help of its stand-alone binary.
    name: 'sim',
    summary: 'the simulator alone, speaking the app-server protocol on stdio',
    options: {},
    ownHelp: true,
  },
];

/** The spec of command `name`. */
export function commandSpec(name: string): CommandSpec | undefined {
  return COMMAND_SPECS.find((c) => c.name === name);
}
