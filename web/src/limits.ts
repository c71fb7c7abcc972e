/** Every bound the web app keeps, in one place (the client side of ARCHITECTURE.md §8). */
export const WEB_LIMITS = {
  /** How often the doctor screen asks whether its probe finished (`GET /api/doctor/probe`). */
  doctorProbePollMs: 1_000,
  /** Reconnect backoff: first delay, doubled per attempt. */
  reconnectBaseMs: 500,
  /** Reconnect backoff cap: a phone on a flaky tunnel retries at least this often. */
  reconnectMaxMs: 15_000,
  /** A drop shorter than this shows no indicator at all ("no alarm for short drops"). */
  quietDropMs: 4_000,
  /** Default JSON-RPC request timeout; prompts have none (they end with their turn). */
  requestTimeoutMs: 30_000,
  /**
   * How long what a user sends while the link is down but reconnecting — a prompt, Stop, an answer
   * to a card, a setting — waits for it to come online (across as many reconnect attempts as that
   * takes, its handshake loading the chats on screen last) before it is refused with a sentence
   * saying it was not sent (a prompt's text given back). Long enough for a daemon restart
   * (seconds, its backend starting included) plus the backoff's next attempt after it is back —
   * up to `reconnectMaxMs` later — and the handshake; short enough that someone still looking at
   * the phone learns it did not go.
   */
  waitOnlineMs: 45_000,
  /** Liveness probe after the tab comes back or the network changes. */
  probeTimeoutMs: 5_000,
  /** Hidden longer than this → probe the socket when the tab is visible again (sleep, backgrounding). */
  probeAfterHiddenMs: 10_000,
  /**
   * Messages asked for when a session is opened: about what fills a phone's screen, so the chat
   * shows sooner on a slow link; if they do not fill it, the top of the chat is in view and the
   * next page (`historyPage`) follows at once (ARCHITECTURE.md §4.2).
   */
  firstHistoryPage: 12,
  /** Messages per older page (`_zcode/load_earlier`), as the chat is scrolled up. */
  historyPage: 30,
  /** Longest edge of an attached image after downscaling on a canvas. */
  imageMaxEdgePx: 1_600,
  /** JPEG quality of downscaled images. */
  imageJpegQuality: 0.85,
  /** Images per prompt. */
  imagesPerPrompt: 6,
  /** Entries the composer's `/` and `@` list shows at once (typing narrows it). */
  composerSuggestions: 8,
  /** Terminal output kept per tool card (tail). */
  terminalTailChars: 64 * 1024,
  /** Search matches the terminal panel marks in one output (the count stops there). */
  terminalSearchMatchesMax: 1_000,
  /** Items kept in one chat before the oldest are dropped (reloaded by scrolling up). */
  chatMaxItems: 2_000,
  /** Sub-agent tool cards kept under one parent card before the oldest are dropped (still counted). */
  subagentChildrenMax: 200,
  /** A session that finished a turn counts as "just finished" this long, unless opened. */
  justFinishedMs: 10 * 60_000,
  /** History pages the Changes view loads to see a whole session (× historyPage messages). */
  changesHistoryPagesMax: 40,
  /** Lines of a file the viewer renders at once (more behind "next lines"). */
  fileWindowLines: 400,
  /** Files bigger than this (size from the listing) are read in line windows, never whole. */
  fileWholeMaxBytes: 1024 * 1024,
  /** Interactions whose card is remembered after they leave the inbox, for the card's "answered by" line. */
  recentInteractionCards: 50,
  /** Lines of a written file the permission sheet shows before "Show all". */
  permissionPreviewLines: 8,
  /** Journal entries of a session the policy dry run reads for its recent requests (the newest). */
  policyRecentEvents: 1_000,
  /** Recent requests of a session the policy dry run lists (newest first). */
  policyRecentRequests: 20,
  /**
   * How long text kept through a sign-out (kept-drafts.ts) waits on the device for its person to
   * pair again before it is dropped unread: long enough for a token revoked on a Friday and paired
   * again after a weekend, short enough that a device left signed out does not hold someone's
   * words for good.
   */
  keptDraftMs: 7 * 24 * 60 * 60_000,
  /** Sessions whose text a sign-out keeps (the newest): with keptDraftChars, a bound far below what localStorage holds. */
  keptDraftSessions: 20,
  /** Characters of one session's kept text (the start is kept): a long prompt, not a pasted log. */
  keptDraftChars: 20_000,
  /** Toasts shown at once. */
  maxToasts: 3,
  /** How long a toast stays, at least. */
  toastMs: 5_000,
  /** A longer toast stays this long per character (about 200 words a minute), up to toastMaxMs: a crash loop's reason takes ~12 s to read. */
  toastMsPerChar: 60,
  /** The longest a toast stays. */
  toastMaxMs: 15_000,
} as const;
