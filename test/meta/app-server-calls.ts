/**
 * Who may speak to the app-server by method name: only the typed client (src/app-server) and
 * the link itself (src/backend; the simulator is the other end). Everyone else calls a method
 * of the client, so a ZCode method name, a hand-built v4 envelope or a raw `.request(` on the
 * link anywhere else is a regression (every call goes through the typed client). (Outbound requests to ACP clients,
 * `client.request('session/request_permission', …)`, are another protocol and pass.)
 */

/**
 * Folders (and files) that may name app-server methods; instrument-backend.ts decorates the link
 * with timings, method-agnostic; src/wire defines the messages (the v4 ACK has a `commandId`) and calls nothing.
 */
export const ALLOWED_DIRS = ['app-server/', 'backend/', 'simulator/', 'wire/', 'metrics/instrument-backend.ts'];

/** Method prefixes only the app-server has (ACP has `session/*` too, hence the list below). */
const ZCODE_PREFIXES = ['v4/', 'workflows/', 'provider/'];
/** `session/*` methods of the app-server, requested of the link (ACP's own are requested of clients, never these). */
const ZCODE_SESSION = [
  'create',
  'resume',
  'list',
  'close',
  'subscribe',
  'messages',
  'subagents',
  'send',
  'stop',
  'setMode',
  'setModel',
  'setThoughtLevel',
  'fork',
  'compact',
  'goal',
  'cancelBackgroundTask',
];

/** A request by method name: `x.request('session/send', …)`. */
const REQUEST = /\.request\(\s*(['"])((?:v4|workflows|provider|session)\/[A-Za-z_/]+)\1/g;
/** Comments may name methods (they cite the wire); code may not. */
const COMMENT = /\/\*[\s\S]*?\*\/|\/\/[^\n]*/g;

/** What `file` (relative to src/) does that only the client may do; empty when nothing. */
export function appServerCallViolations(file: string, text: string): string[] {
  if (ALLOWED_DIRS.some((d) => file.startsWith(d))) return [];
  const code = text.replace(COMMENT, '');
  const out: string[] = [];
  for (const m of code.matchAll(REQUEST)) {
    const method = m[2]!;
    const [ns, name] = [method.slice(0, method.indexOf('/') + 1), method.slice(method.indexOf('/') + 1)];
    if (ZCODE_PREFIXES.includes(ns) || (ns === 'session/' && ZCODE_SESSION.includes(name)))
      out.push(`${file}: names the app-server method ${method}`);
  }
  if (/\bcommandId\s*:/.test(code)) out.push(`${file}: builds a v4 command envelope`);
  if (/\bbackend\.request\(/.test(code)) out.push(`${file}: calls the link directly`);
  return out;
}
