/**
 * Every bound the hub enforces, in one place (ARCHITECTURE.md §8). Each is configurable through
 * the config schema and each has a test that crosses it. Sizes are bytes, times milliseconds.
 */
export const LIMITS = {
  /** Largest WebSocket message accepted from a client (image prompts); crossing it closes 1009. */
  wsMaxMessageBytes: 16 * 1024 * 1024,
  /** Deepest nesting of arrays and objects in one JSON message from a client, a REST body or a child line; deeper is refused before anything recurses over it (5,000 levels overflowed the broadcaster's stack). */
  jsonMaxDepth: 128,
  /** Largest REST body; crossing it answers 413. */
  httpBodyLimitBytes: 256 * 1024,
  /**
   * Longest path segment a REST route reads as a parameter (a session or interaction id, as sent,
   * percent-encoding included); longer answers 414 before auth runs. Room for the 256-character
   * ids the routes' own schemas accept, percent-encoded.
   */
  httpPathParamMaxChars: 1_024,
  /** Bytes queued towards one client before it is closed 4008 (slow consumer). */
  clientOutboundBudgetBytes: 4 * 1024 * 1024,
  /**
   * Longest line read from the child's stdout; a longer one is skipped (its request fails), the
   * child lives on. 256 MiB: snapshots inline images as data URLs of up to 20 MiB each (~27 MiB
   * as base64 JSON, APP-SERVER.md §3.6), so a resumed session with a handful of screenshots
   * passes, while the line still fits V8's ~512 MiB string limit with room to parse it.
   */
  childStdoutLineBytes: 256 * 1024 * 1024,
  /** Bytes queued for the child's stdin while it does not read; further requests fail fast. */
  childStdinQueueBytes: 16 * 1024 * 1024,
  /** Time the child gets to end a stopped turn before the hub ends it locally (APP-SERVER.md §11 item 7). */
  stopSettleMs: 10_000,
  /**
   * After the hub ended a stopped turn itself (stopSettleMs), a prompt the child still refuses
   * with -32010 is tried again this often: such a child may never send the boundary (APP-SERVER.md §14.1).
   */
  busyRetryMs: 2_000,
  /** Default timeout of a forward request to the app-server. */
  forwardRequestTimeoutMs: 30_000,
  /** Time a freshly spawned app-server has to answer its liveness probe before it is restarted; separate from forwardRequestTimeoutMs, which a deployment may shorten, because a child starting on a busy machine takes longer than a request should. */
  backendStartTimeoutMs: 30_000,
  /**
   * Live events of a session held while its `session/subscribe` with `afterSeq` is answered
   * (they may precede the answer, APP-SERVER.md §5.2); past it the hub reloads the session
   * from the subscribe snapshot instead of replaying events. Its `state.updated`s wait too, up
   * to the same number (a ready boundary must not answer a prompt before its text); past it
   * they apply at once.
   */
  subscribeBufferMaxEvents: 10_000,
  /**
   * Timeout of `session/send`: the child answers it only after every request in front of it
   * (APP-SERVER.md §1.6 — a slow create or provider test), and runs it even after a timeout.
   */
  sendAnswerTimeoutMs: 600_000,
  /** Timeout of session/create and session/resume (they wait on reverse requests). */
  sessionOpenTimeoutMs: 60_000,
  /** Output kept per background task for late joiners and reloads (its last characters; earlier output is marked trimmed). */
  taskOutputMaxChars: 64 * 1024,
  /** Background tasks per session whose output is kept (the oldest is forgotten first). */
  taskOutputsMax: 16,
  /** Kept task output is written to `<state-dir>/task-outputs/` at most this often per session (a batch of chunks per write, never one write per chunk). */
  taskOutputFlushMs: 1_000,
  /**
   * Sessions asked about per `session/list` when the hub, at start, looks for sessions deleted
   * while it was down, to forget what it keeps about them (domain/sessions/deleted-while-down.ts;
   * the app-server takes 1–64 ids and lists at most 50 without a `limit`).
   */
  taskOutputPruneBatch: 50,
  /**
   * Journal ring per session: updates kept. Where each one's bytes are takes a 12-byte slot outside
   * the JS heap; the slots double as the ring fills, up to the power of two above the cap (32,768
   * slots, 384 KiB, at 20,000).
   */
  journalMaxUpdates: 20_000,
  /** Journal ring per session: serialized bytes kept. */
  journalMaxBytes: 32 * 1024 * 1024,
  /**
   * Bytes of one session's running-turn record on disk (`<state-dir>/turns/`):
   * what clients were sent of a turn the agent has not stored yet, kept across a hub restart.
   * A record that grows past it is deleted (history and the interrupted marker remain).
   */
  turnRecordMaxBytes: 8 * 1024 * 1024,
  /** Streamed updates of a running turn are written to its record at most this often (one append per interval, never one per token). */
  turnRecordFlushMs: 100,
  /** Prompt and answer authors, and the marks of Writes that replaced a file, remembered for replay (`<state-dir>/authors.ndjson`); past it the oldest are forgotten (their messages replay without a name, such a Write as if its file were new). */
  authorsMax: 20_000,
  /** Messages of history a `session/load` without `_meta.zcode.limit` replays, and the most any history page reads from the agent: what bounds an editor's catch-up on a long session (2,000 messages of a 1,000-turn session: about 2 MB, bench B-LONG). A limited load or page reads a window of 4 × limit + 16 newest messages, grown only as far back as its page reaches. */
  replayMaxMessages: 2_000,
  /** Sub-agents whose tool calls a history replay nests under their Agent card (one `session/messages` each); past it the Agent card shows alone. */
  replaySubagentsMax: 20,
  /** Time a socket may stay unauthenticated. */
  preAuthDeadlineMs: 10_000,
  /** Bytes an unauthenticated socket may send. */
  preAuthMaxBytes: 64 * 1024,
  /** Time a client has to send one whole HTTP request, head and body; past it node answers 408 and closes (a body trickled a byte every 2 s held a socket forever). */
  httpRequestTimeoutMs: 30_000,
  /** An idle kept-alive HTTP connection is closed after this (fastify's default held sockets 72 s). */
  httpKeepAliveTimeoutMs: 5_000,
  /** How often node sweeps connections for the request and header timeouts (its own default is 30 s). */
  httpTimeoutSweepMs: 1_000,
  /** Streams one HTTP/2 connection may have open at once (SETTINGS_MAX_CONCURRENT_STREAMS); a client past it has its new stream refused (REFUSED_STREAM). */
  http2MaxConcurrentStreams: 100,
  /** Largest header block of one HTTP/2 request (SETTINGS_MAX_HEADER_LIST_SIZE), node's 16 KiB HTTP/1.1 head bound; a larger one is refused. */
  http2MaxHeaderListBytes: 16 * 1024,
  /** Connections that have not authenticated, in total; past it the oldest of the busiest address is closed (~20k idle sockets ran the hub out of file descriptors). */
  unauthConnectionsTotal: 256,
  /** Connections that have not authenticated, from one address; past it that address's oldest is closed. */
  unauthConnectionsPerAddress: 64,
  /** Attach and detach notices (`_zcode/presence`, `_zcode/session_state`) are sent at most once per session per this window, with what holds when it closes; 0 = one per change (a 1,000-client reconnect storm was quadratic). */
  presenceCoalesceMs: 100,
  /** Session-list notices (`_zcode/session_state`) wait at most this long and go out together, each change in order: sessions changing at once cost every device one write, not one per session (B-SCALE); 0 = each at once. */
  sessionStateBatchMs: 100,
  /** Kept-alive HTTP connections on which one device token's requests authenticated (WebSockets have `connectionsPerToken`); past it that token's next new connection gets 429 HUB_ERR_TOO_MANY_CONNECTIONS (one view token held 19,857 of 20,000 descriptors). The admin token is bounded by the total only. */
  authConnectionsPerToken: 64,
  /** Authenticated HTTP connections in total, lowered at start so they, the WebSockets and the unauthenticated sockets fit under the process's descriptor limit; past it a new one gets 503 HUB_ERR_CONNECTIONS_FULL. */
  authConnectionsTotal: 4_096,
  /** Of `authConnectionsTotal`, connections only the admin token may take, so an admin gets in when devices filled the rest (health needs no token and has the unauthenticated pool). */
  authConnectionsAdminReserve: 64,
  /** Files under the denied directories (state dir, `.zcode/v2`) indexed by inode, so a hard link to any of them in a workspace is refused; past it the file routes refuse every file with more than one link (fail closed). */
  deniedInodesMax: 50_000,
  /** Open WebSocket connections per token. */
  connectionsPerToken: 32,
  /** Open WebSocket connections in total. */
  connectionsTotal: 1_024,
  /** `Acp-Session-Id` event streams one Streamable HTTP connection may hold open (the SDK opens one per session). */
  httpSessionStreamsPerConnection: 64,
  /** Pending interactions per session. */
  pendingInteractionsPerSession: 256,
  /** Settled interactions remembered so a late answer is refused naming the winner (domain, ARCHITECTURE.md §4.5). */
  settledInteractionsKept: 4_096,
  /**
   * Characters of one kept partial answer (`_zcode/partial_answer`, docs/CLIENT-PROTOCOL.md
   * "Partial answers"): the hub keeps one per question of a pending question until the last one
   * settles it, so a longer one is refused (HUB_ERR_LIMIT) rather than held.
   */
  partialAnswerChars: 4_096,
  /**
   * Withdrawn interaction requests one connection remembers so an answer arriving after the
   * `$/cancel_request` is told `_zcode/answer_refused` (docs/CLIENT-PROTOCOL.md "Refusals"); past it the
   * oldest is forgotten and its late answer is ignored, as any unknown id is.
   */
  withdrawnRequestsKept: 64,
  /** Age at which a pending interaction is settled `expired` with a decline (ARCHITECTURE.md §4.5 policy timeout); 0 = never, no timers. */
  interactionTimeoutMs: 0,
  /**
   * Pause between a question card's tool_call and its request on the zcode-acp-remote profile:
   * that app applies updates in 120 ms batches and reads the card's text from the tool call
   * when the request lands (its ADR 0003), so the tool call must have been applied by then.
   */
  compatQuestionPrefaceMs: 400,
  /** Backend restart backoff: first delay. */
  restartBackoffBaseMs: 500,
  /** Backend restart backoff: cap. */
  restartBackoffMaxMs: 30_000,
  /** Crashes within `crashWindowMs` that put the backend in `failed`. */
  crashLoopCount: 5,
  crashWindowMs: 60_000,
  /** Stop ladder: stdin EOF, wait, SIGTERM, wait, SIGKILL. */
  stopGraceMs: 2_000,
  /** WebSocket heartbeat interval: each connection is pinged once in it (a slice of them every tick, at most thirty ticks, heartbeat-wheel.ts); a missed pong terminates the socket at its next ping. */
  heartbeatIntervalMs: 30_000,
  /** Longest the child's Node.js may take to answer `--version` at start (`--zcode-node` check). */
  nodeVersionCheckTimeoutMs: 10_000,
  /** `zcode-hub doctor --probe`: longest one step of the scripted conversation waits for its answer before its row reads `missing` (timeout). */
  probeStepTimeoutMs: 15_000,
  /** `zcode-hub doctor --probe`: longest the probe waits for a prompt's turn to end (its terminal event and the ready boundary). */
  probeTurnTimeoutMs: 60_000,
  /** Largest `--record-wire` file; the line that would cross it is replaced by a final marker line and recording stops (docs/APP-SERVER.md §15.3). */
  wireRecordMaxBytes: 64 * 1024 * 1024,
  /** Child stderr lines kept for diagnostics (doctor, /api/status). */
  stderrRingLines: 200,
  /** Child stderr lines logged per second before the rest are counted, not logged. */
  stderrLogLinesPerSecond: 50,
  /** Protocol violations on one socket before it is closed 4400. */
  protocolViolationsBeforeClose: 20,
  /** Web Push subscriptions kept over all devices (src/push); past it a new one is refused (429), none is dropped. */
  pushSubscriptionsMax: 256,
  /** Web Push subscriptions one device (token) keeps; past it that device's oldest is dropped, never another's. */
  pushSubscriptionsPerDevice: 4,
  /** Hard deadline of one push delivery (connect, TLS, answer); past it the socket is destroyed. */
  pushDeliveryTimeoutMs: 10_000,
  /** Push deliveries in flight at once, over all subscriptions and sessions. */
  pushDeliveriesInFlight: 8,
  /** Push deliveries waiting for a slot; past it a new one is dropped (logged). */
  pushDeliveriesQueuedMax: 512,
  /** Failed deliveries in a row (no answer, refused, 5xx …) after which a subscription is forgotten; 404/410 forget it at once. */
  pushFailuresBeforeForget: 5,
  /** Sessions whose archive flag, last-message preview or last context usage the hub keeps (`session-marks.ndjson`); past it the marks changed longest ago go first. */
  sessionMarksMax: 2_000,
  /**
   * Tool calls of one session the hub remembers as announced and unfinished, to close them `failed` if
   * their turn ends other than normally (src/acp/open-tool-calls.ts). Past it the oldest is forgotten:
   * that one is then not closed by the hub and stays as the agent left it (pending, say) until the agent
   * itself finishes it. Bounds an agent that streams tool calls while no turn ever ends.
   */
  openToolCallsMax: 1_000,
  /** Characters of a session's last message shown as its preview in session lists. */
  sessionPreviewChars: 160,
  /** The agent's slash commands of one session passed on as ACP `available_commands_update`; the rest are dropped (APP-SERVER.md §3.6). */
  availableCommandsMax: 100,
  /** Pairing code lifetime (single use, ARCHITECTURE.md §7). */
  pairingCodeTtlMs: 5 * 60_000,
  /** Pairing codes outstanding at once; the oldest is dropped beyond it. */
  pairingCodesMax: 16,
  /** `POST /api/pair` attempts per client address per `pairRateWindowMs` (brute-force bound, SEC-07). */
  pairAttemptsPerWindow: 10,
  pairRateWindowMs: 60_000,
  /** Public addresses an admin may add at run time (`/api/settings/public-urls`, tunnels). */
  publicUrlsMax: 16,
  /** App origins added as peers at run time (`zcode-hub peers add`, `/api/peers`, `pair --into`); `--peer` flags do not count. */
  peersMax: 64,
  /** Other machines the home app records per device (`PUT /api/machines/{hubId}`); each widens this hub's CSP `connect-src`. */
  machinesMax: 64,
  /** Machine entries over all devices (each device has its own `machinesMax` list). */
  machineEntriesMax: 1024,
  /** How far a DPoP proof's `iat` may be from now, either way (RFC 9449): older or later proofs are refused 401. */
  dpopProofMaxAgeMs: 60_000,
  /** DPoP proof ids remembered against replay while they are young enough to be accepted; when full of live ones, new proofs are refused 429 rather than one forgotten. */
  dpopReplayCacheMax: 10_000,
  /** Lifetime of a single-use WebSocket ticket (`POST /api/ws-ticket`, `/acp?ticket=`). */
  wsTicketTtlMs: 30_000,
  /** Outstanding WebSocket tickets; past it the oldest is dropped. */
  wsTicketsMax: 1_024,
  /** Time a CLI command gives the running daemon to answer one REST call (`callDaemon`); past it the command says the hub did not answer within it and exits 1. */
  cliDaemonCallTimeoutMs: 10_000,
  /** How long `zcode-hub stop` waits for the daemon to exit after asking it to (SIGTERM); it says so and exits 1 past it. */
  stopWaitMs: 30_000,
  /** Lifetime of a device token when `--ttl` is not given (paired devices and `token create`). */
  deviceTokenDefaultTtlMs: 90 * 24 * 3_600_000,
  /** Device tokens remembered after their signature was verified, so a reconnect storm does not check the same signature a thousand times (~300 µs each); revocation, scope and expiry are still checked on every use; 0 turns it off. */
  verifiedTokensMax: 1_024,
  /** How often expired device tokens are looked for, so their sockets close (ARCHITECTURE.md §7). */
  tokenExpirySweepMs: 1_000,
  /** Audit entries per `GET /api/audit` page. */
  auditPageMax: 500,
  /** Bytes of `audit.jsonl` before it moves to `audit.jsonl.1` (replacing the older one) and a new log starts: the audit log keeps at most about twice this on disk, oldest entries dropped first; `GET /api/audit` reads both files. */
  auditLogMaxBytes: 64 * 1024 * 1024,
  /** A socket we closed (4008, 4400, 4401) that has not finished the close handshake by then is terminated (FAN-02: a stalled reader cannot ack). */
  wsCloseGraceMs: 2_000,
  /** Entries returned by one compat `fs/list` call before `truncated: true` (ARCHITECTURE.md §5.1). */
  fsListMaxEntries: 2_000,
  /** Sub-folders one `GET /api/workspaces/dirs` answer lists (the new-session picker) before `truncated: true`. */
  workspaceDirsMax: 500,
  /** Largest file the compat `fs/file` route serves in one response (ARCHITECTURE.md §5.1). */
  fsFileMaxBytes: 8 * 1024 * 1024,
  /** Lines in a compat `fs/file?line=` window when the client gives no `limit` (zcode-acp-remote's ADR 0005). */
  fsLineWindowDefault: 200,
  /** Most lines one compat `fs/file?line=&limit=` window returns; a larger `limit` is lowered to it. */
  fsLineWindowMax: 5_000,
  /** Time one git child (`GET /api/sessions/:id/git…`) may run before it is killed and the call answers 504. */
  gitTimeoutMs: 10_000,
  /** Bytes of `git status` output read; past it the file list is cut and `truncated: true`. */
  gitStatusMaxBytes: 1024 * 1024,
  /** Changed files one `GET /api/sessions/:id/git` answer lists before `truncated: true`. */
  gitStatusMaxFiles: 2_000,
  /** Bytes of one file's diff (`GET /api/sessions/:id/git/diff`); past it the diff is cut and `truncated: true`. */
  gitDiffMaxBytes: 512 * 1024,
  /** How long one `/api/quota` answer is reused before the providers' quota APIs are asked again. */
  quotaCacheMs: 30_000,
  /** Time a provider's quota API has to answer before its section reads `unavailable`. */
  quotaUpstreamTimeoutMs: 8_000,
  /** Largest quota API answer read; a larger one reads `unavailable`. */
  quotaUpstreamMaxBytes: 1024 * 1024,
  /** Coding-plan providers asked per `/api/quota` (in provider order); the rest are left out. */
  quotaProvidersMax: 8,
  /** Approval rules in the hub's policy (`PUT /api/policy`, docs/SECURITY.md "Approval rules"); more is refused 400. */
  policyRulesMax: 200,
  /** Characters of one text of a rule (its id, description, each glob, person or session id); longer is refused 400. */
  policyRuleTextMax: 512,
  /** Largest `quorum` a rule may ask for (distinct people who must allow); larger is refused 400. */
  policyQuorumMax: 16,
  /**
   * Characters of one text in an interaction view (the inbox, read-only copies): a diff's old or new
   * text, a tool input string; longer is cut and marked `_meta.zcode.truncated` (the live request keeps it whole).
   */
  interactionViewTextMax: 16_000,
  /** "Always allow" grants the hub keeps (docs/SECURITY.md "Always allow"); picking "Always" beyond it is refused until one is removed. */
  alwaysGrantsMax: 200,
  /** Characters of the rule content of one "always allow" grant (a command, a path, a URL); a longer one is not kept as a grant. */
  alwaysGrantContentMax: 2_000,
} as const;

export type Limits = { -readonly [K in keyof typeof LIMITS]: number };
