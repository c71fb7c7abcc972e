import WebSocket from 'ws';
import { until } from './until.js';

/**
 * A test model of the public zcode-acp-remote phone app's wire behaviour (its source is the
 * contract: `src/lib/acp.ts`, `src/lib/hub.ts`, `src/store/appStore.ts`, ADR 0003 and ADR 0005 of
 * github.com/william0wang/zcode-acp-remote). Written from reading it, not copied. What it does
 * as the app does:
 *
 * - dials `/acp?instance=<id>&token=<t>` (no headers) and sends `initialize` with
 *   `protocolVersion: 1, clientCapabilities: {}` — no elicitation, no clientInfo;
 * - keeps ONE pending permission card: a new `session/request_permission` replaces the last;
 * - applies `session/update`s in 120 ms batches, and builds a card's context at the moment the
 *   request arrives by finding the tool call whose id equals `toolCall.toolCallId`: the card is a
 *   question when that tool call's `_meta.claudeCode.toolName` (else its title) is
 *   `AskUserQuestion`, and its text is the tool call's text content;
 * - `$/cancel_request` drops the card whose request id is `params.id`;
 * - REST with `Authorization: Bearer` against `/api/…`.
 */

/** The app's update batching window (appStore `applyUpdate`). */
const UPDATE_BATCH_MS = 120;

interface ToolPart {
  title: string;
  rawName?: string;
  detail: string;
  status: string;
}

export interface AppCard {
  requestId: number;
  sessionId: string;
  options: Array<{ optionId: string; name?: string; kind?: string }>;
  /** What the card shows, derived as the app derives it. */
  isQuestion: boolean;
  isPlan: boolean;
  text?: string;
  /** `toolCall.rawInput.plan`, which the app shows on a plan card. */
  plan?: string;
  toolName?: string;
}

type Json = Record<string, unknown>;

function textOf(content: unknown): string {
  const blocks = Array.isArray(content) ? content : content ? [content] : [];
  return blocks
    .map((b: unknown) => {
      const block = b as { type?: string; text?: unknown; content?: { type?: string; text?: unknown } };
      if (block.type === 'text' && typeof block.text === 'string') return block.text;
      if (block.type === 'content' && block.content?.type === 'text' && typeof block.content.text === 'string') return block.content.text;
      return '';
    })
    .join('');
}

export class RemoteApp {
  /** Every JSON-RPC method the hub pushed (notifications and requests), in order. */
  readonly received: Array<{ method: string; params: Json }> = [];
  /** Cards in the order they were raised; `replaced` counts cards overwritten while pending. */
  readonly cards: AppCard[] = [];
  replaced = 0;
  card: AppCard | null = null;
  fsCapable = false;
  readonly turnStates: Array<{ sessionId: string; running: boolean }> = [];
  private readonly parts = new Map<string, ToolPart>();
  private queue: Json[] = [];
  private flushTimer: NodeJS.Timeout | undefined;
  private nextId = 1;
  private readonly pending = new Map<number, { resolve: (v: unknown) => void; reject: (e: Error) => void }>();

  private constructor(
    private readonly ws: WebSocket,
    readonly hubUrl: string,
    readonly token: string,
    readonly instanceId: string,
  ) {
    ws.on('message', (data, isBinary) => {
      if (!isBinary) this.onMessage(data.toString());
    });
    ws.on('close', () => {
      for (const p of this.pending.values()) p.reject(new Error('connection closed'));
      this.pending.clear();
    });
  }

  /** Connects and initializes exactly as the app does. */
  static async connect(hubUrl: string, token: string, instanceId = 'zcode-hub'): Promise<RemoteApp> {
    const url = new URL(hubUrl);
    url.protocol = url.protocol === 'https:' ? 'wss:' : 'ws:';
    url.pathname = `${url.pathname.replace(/\/+$/, '')}/acp`;
    url.searchParams.set('instance', instanceId);
    url.searchParams.set('token', token);
    const ws = new WebSocket(url);
    await new Promise<void>((resolve, reject) => {
      ws.once('open', () => resolve());
      ws.once('error', reject);
    });
    const app = new RemoteApp(ws, hubUrl, token, instanceId);
    const init = (await app.request('initialize', { protocolVersion: 1, clientCapabilities: {} })) as {
      agentCapabilities?: { _meta?: { zcode?: { fs?: unknown } } };
    };
    app.fsCapable = init.agentCapabilities?._meta?.zcode?.fs === true;
    return app;
  }

  request(method: string, params: Json = {}): Promise<unknown> {
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      this.ws.send(JSON.stringify({ jsonrpc: '2.0', id, method, params }));
    });
  }

  notify(method: string, params: Json = {}): void {
    this.ws.send(JSON.stringify({ jsonrpc: '2.0', method, params }));
  }

  /** The app's `loadSession`: tail replay of 30 messages, cwd only when the instance list knows it. */
  loadSession(sessionId: string, cwd?: string): Promise<unknown> {
    return this.request('session/load', { sessionId, ...(cwd ? { cwd } : {}), mcpServers: [], _meta: { zcode: { limit: 30 } } });
  }

  /** The app's `runPrompt` for text. */
  prompt(sessionId: string, text: string): Promise<unknown> {
    return this.request('session/prompt', { sessionId, prompt: [{ type: 'text', text }] });
  }

  /**
   * The app's `runPrompt` as its user sees the outcome: nothing when the turn ends, nothing when
   * the connection dropped (the reconnect banner speaks, `isTransientConnError`), else the notice
   * it shows, `prompt failed: <the error's message>`.
   */
  async promptNotice(sessionId: string, text: string): Promise<string | undefined> {
    try {
      await this.prompt(sessionId, text);
      return undefined;
    } catch (e) {
      const message = (e as Error).message;
      return message.includes('connection closed') || message.includes('connection not open') ? undefined : `prompt failed: ${message}`;
    }
  }

  /** The app's `answerPermission`. */
  answer(optionId: string): void {
    const card = this.card;
    if (!card) throw new Error('no pending card');
    this.card = null;
    this.ws.send(JSON.stringify({ jsonrpc: '2.0', id: card.requestId, result: { outcome: { outcome: 'selected', optionId } } }));
  }

  /** Waits for a pending card other than `previous`. */
  nextCard(previous?: AppCard | null, what = 'a permission card'): Promise<AppCard> {
    return until(() => (this.card && this.card !== previous ? this.card : undefined), what);
  }

  /** The methods pushed by the hub, without duplicates. */
  methods(): string[] {
    return [...new Set(this.received.map((m) => m.method))];
  }

  close(): void {
    clearTimeout(this.flushTimer);
    this.ws.close();
  }

  /** REST as the app's HubClient does it (Bearer header). */
  api(path: string, method: 'GET' | 'POST' = 'GET'): Promise<Response> {
    return fetch(`${this.hubUrl.replace(/\/+$/, '')}${path}`, { method, headers: { Authorization: `Bearer ${this.token}` } });
  }

  private onMessage(text: string): void {
    let msg: { id?: number; method?: string; params?: Json; result?: unknown; error?: { message: string } };
    try {
      msg = JSON.parse(text) as typeof msg;
    } catch {
      return;
    }
    if (typeof msg.method === 'string') {
      const params = msg.params ?? {};
      this.received.push({ method: msg.method, params });
      if (msg.id !== undefined) return this.onServerRequest(msg.id, msg.method, params);
      if (msg.method === 'session/update') return this.onUpdate(params);
      if (msg.method === '$/zcode/turnState' && typeof params.sessionId === 'string' && typeof params.running === 'boolean') {
        this.turnStates.push({ sessionId: params.sessionId, running: params.running });
      } else if (msg.method === '$/cancel_request' && typeof params.id === 'number' && this.card?.requestId === params.id) {
        this.card = null;
      }
      return;
    }
    if (typeof msg.id === 'number') {
      const entry = this.pending.get(msg.id);
      if (!entry) return;
      this.pending.delete(msg.id);
      if (msg.error) entry.reject(new Error(msg.error.message));
      else entry.resolve(msg.result);
    }
  }

  private onServerRequest(id: number, method: string, params: Json): void {
    if (method !== 'session/request_permission') return; // the app leaves other requests unanswered
    if (this.card) this.replaced += 1;
    const toolCall = (params.toolCall ?? {}) as { toolCallId?: unknown; rawInput?: { plan?: unknown } };
    const toolCallId = typeof toolCall.toolCallId === 'string' ? toolCall.toolCallId : undefined;
    const part = toolCallId ? this.parts.get(toolCallId) : undefined;
    const options = Array.isArray(params.options)
      ? (params.options as AppCard['options']).filter((o) => typeof o.optionId === 'string')
      : [];
    const ids = new Set(options.map((o) => o.optionId));
    const toolName = part?.rawName ?? part?.title;
    const card: AppCard = {
      requestId: id,
      sessionId: String(params.sessionId ?? ''),
      options,
      isQuestion: toolName === 'AskUserQuestion',
      isPlan: ids.has('approve') && ids.has('reject'),
      ...(toolName === undefined ? {} : { toolName }),
      ...(part?.detail ? { text: part.detail } : {}),
      ...(typeof toolCall.rawInput?.plan === 'string' ? { plan: toolCall.rawInput.plan } : {}),
    };
    this.card = card;
    this.cards.push(card);
  }

  private onUpdate(params: Json): void {
    this.queue.push(params);
    if (this.flushTimer) return;
    this.flushTimer = setTimeout(() => {
      this.flushTimer = undefined;
      const batch = this.queue;
      this.queue = [];
      for (const p of batch) this.apply((p.update ?? {}) as Json);
    }, UPDATE_BATCH_MS);
  }

  private apply(u: Json): void {
    const id = String(u.toolCallId ?? '');
    if (u.sessionUpdate === 'tool_call') {
      const meta = u._meta as { claudeCode?: { toolName?: unknown } } | undefined;
      this.parts.set(id, {
        title: String(u.title ?? 'tool'),
        ...(typeof meta?.claudeCode?.toolName === 'string' ? { rawName: meta.claudeCode.toolName } : {}),
        detail: textOf(u.content),
        status: String(u.status ?? 'pending'),
      });
    } else if (u.sessionUpdate === 'tool_call_update') {
      const part = this.parts.get(id);
      if (!part) return;
      const chunk = textOf(u.content);
      if (chunk) part.detail = chunk;
      if (typeof u.status === 'string') part.status = u.status;
    }
  }
}
