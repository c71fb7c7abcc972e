/**
 * The behaviours the suites must prove, by id. A test names the ids it proves
 * in its title (`[APR-05] …`); bench rows are proved by a scenario in bench/ that names them.
 * test/meta/requirements.test.ts fails when an id is proved by nobody.
 */
export const REQUIREMENTS = {
  'CHD-01': 'kill the child under load: hub survives, in-flight requests fail typed, respawn, backend_state broadcast',
  'CHD-02': 'child exits at once on every start: capped backoff with jitter, failed after 5 crashes in 60 s, restart recovers',
  'CHD-03': 'junk, oversize, invalid UTF-8 and non-envelope lines from the child: skipped or fault+restart, memory bounded',
  'CHD-04': 'child stops reading stdin: queue stays under its cap, requests fail fast',
  'CHD-05': 'a request the child never answers is rejected at its timeout',
  'CHD-06': 'SIGTERM to the hub while the child ignores SIGTERM: stop ladder, exit within 10 s, no orphans',
  'CHD-07': 're-announced permission request: one record, one answer, late re-announcements answered at once',
  'CHD-08': '-32004 resume + single retry (shared), -32010 never reaches a user: prompts queue',
  'APR-01': 'many interactions raced by 5 operator clients: exactly one winner each',
  'APR-02': 'unknown id, option not offered, view token, after resolution: typed rejection, zero writes',
  'APR-03': 'session/cancel with 3 interactions pending: all cancelled and broadcast',
  'APR-04': 'everyone disconnects, one returns: still pending, re-sent once per connection after replay',
  'APR-05': 'dismiss is not deny',
  'APR-06': 'child crash with interactions pending: lost, broadcast, late answer refused',
  'APR-07': 'question and plan shapes per client capability; exact ZCode result shapes',
  'FAN-01': 'every client receives every update once, seq strictly increasing, no gaps',
  'FAN-02': 'a stalled client is closed 4008; the others keep their latency; memory bounded',
  'FAN-03': 'each event serialized once for 100 clients',
  'REC-01': 'reconnect with afterSeq + epoch: exactly the missing updates, recovered true',
  'REC-02': 'gap beyond the journal, hub restart, child restart: recovered false tail replay, interactions re-sent',
  'REC-03': '100 clients reconnect at once: all caught up, no child request caused by catch-up',
  'REC-04':
    'a client joining after the k-th update of a scripted turn, for every k and each client profile, folds to the same transcript as one present from the start',
  'REC-05':
    'a failed turn, a daemon restart mid-turn, a backend that fails mid-turn: each told apart from success, what was said stays, every prompt in flight answered',
  'PRM-01': 'two clients prompt a busy session: queued FIFO, each response at its own turn end, both echoed',
  'PRM-02': 'every ZCode event type through the translator; unknown types ignored',
  'SEC-01': 'loopback by default; non-loopback without a secret refuses to start',
  'SEC-02': 'Host allow-list on HTTP and the WebSocket upgrade',
  'SEC-03': 'Origin allow-list on the upgrade before auth',
  'SEC-04': 'every non-public route answers 401 without credentials',
  'SEC-05': 'no secret and no query string in any log line of the suites',
  'SEC-06': 'JWT matrix rejected; revoked token sockets closed within 1 s',
  'SEC-07': 'pairing attempts rate-limited',
  'SEC-08': 'view token cannot prompt, cancel, answer or write settings; audit records nothing as done',
  'SEC-09': 'file modes: secrets and state files 0600, state dir 0700',
  'SEC-10':
    'file routes never serve the state dir, provider files or backups (.., symlinks, hard links, absolute paths); reads by scope, audited',
  'SEC-11': 'session/new with a cwd outside the workspace roots, relative, missing or a symlink leaving a root: refused naming the roots',
  'SEC-12':
    'unauthenticated floods (idle, keep-alive, trickled bodies) cut off by named timeouts and caps; health and authenticated clients keep answering',
  'SEC-13': 'JSON nested 5,000 deep on the WebSocket, REST and the child stdout: a clear error, no session left jammed',
  'PPL-01':
    "a client claiming another name is shown and recorded as its token's person and device: prompt, answer, presence, audit, replay after restart",
  'POL-01': 'allow and deny rules settle an interaction without asking anyone; every client sees which rule; audited',
  'POL-02': 'ask rules with approvers (scope, people, originator): ineligible answers refused and change nothing, eligible ones win',
  'POL-03': 'quorum of N distinct people: one person with two devices counts once, an eligible deny denies',
  'POL-04': 'localOnly: an answer through a proxied connection is refused, a loopback one wins',
  'POL-05': 'policy REST: invalid rule 400 naming the field, stale revision 409, view cannot read, operate cannot write',
  'POL-06':
    'rules hold on every path: WebSocket, Streamable HTTP, stdio bridge, REST answer, the compat profile, sub-agent requests, re-send after a restart',
  'WS-01': 'message of max size + 1 closes 1009, others unaffected',
  'WS-02': 'malformed frames: typed errors or 4400, zero crashes',
  'WS-03': 'unauthenticated socket closed at the pre-auth deadline',
  'WS-04': 'peer that stops answering pings is terminated and removed',
  'WS-05': 'close 1000 mid-turn: turn and interactions continue, reconnect resumes',
  'CFG-01': 'SIGKILL during provider writes: file is old or new, temp files cleaned',
  'CFG-02': 'two writers with the same If-Match: one 200, one 412',
  'CFG-03': 'invalid body, unknown key, oversize body: 400/400/413, file untouched',
  'CFG-04': 'file broken by hand: reported, not overwritten blindly, fixed file picked up',
  'CFG-05': 'GET then PUT back: no raw key returned, stored key unchanged',
  // Beyond the daemon: the phone web app's "done means", proved in real Chromium.
  'WEB-01': 'web: pairs with a one-time code; HttpOnly cookie; first load under 300 KB gzipped',
  'WEB-02': 'web: creates a session and streams Markdown with reasoning and tool cards',
  'WEB-03': 'web: permission, question (single + multi) and plan answered from bottom sheets',
  'WEB-04': 'web: visible queue while busy; stop ends the turn',
  'WEB-05': 'web: image attachment downscaled; mode picker',
  'WEB-06': 'web: loses the connection mid-turn and recovers without losing a message',
  'WEB-07': 'web: another device answers first and the sheet closes naming it; inbox answers over REST',
  'WEB-08': 'web: live session list with badges, inbox and settings screens',
  'WEB-09': 'web: installable PWA with an offline shell',
  'WEB-10': 'web: no console errors',
  'WEB-11': 'web: a device signs itself out (token revoked, cookie cleared)',
  'B-FAN': 'bench: the broadcast ceiling (p99 ≤ 50 ms, no gaps, 100 clients) vs the fair bare ws baseline',
  'B-LAT': 'bench: added latency child stdout to client at load L',
  'B-SLOW': 'bench: healthy clients p99 with a stalled client',
  'B-REC': 'bench: 100 clients reconnecting after 500 missed updates',
  'B-REPLAY': 'bench: attach to a 10,000-update journal',
  'B-MEM': 'bench: RSS with 10 sessions and 100 idle clients',
  'B-START': 'bench: process start to /api/health 200',
  'B-SCALE': 'bench: 1,000 clients over 10 sessions (team rate, reconnect storm, idle memory and CPU)',
  'B-PHONE': "bench: a phone over slow-4G and 3G: the session list, a 200-turn session's last message with the live stream, a reload",
  'B-LONG': 'bench: 100 sessions of 1,000 turns against 100 of 10: memory, list, open and catch-up stay flat',
} as const;

export type RequirementId = keyof typeof REQUIREMENTS;

/**
 * Ids not proved yet, each with the reason and the issue that will prove it. The meta test
 * checks both ways: everything else is proved, and nothing listed here is secretly proved
 * (so this list cannot go stale).
 */
export const NOT_YET_PROVED: Partial<Record<RequirementId, string>> = {};
