/**
 * A PromptFlow (src/domain/prompts/prompt-flow.ts) on its own, for the flow's unit tests: the real
 * HubCore and app-server client over a RecordingBackend (recording-backend.ts), one session with
 * three attached RecorderClients — alice and bob prompt, carol only watches. The child's events
 * reach the flow through its public methods, as event-ingest.ts hands them on. Nothing here
 * answers for the child: every reply is the test's.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { StopReason } from '@agentclientprotocol/sdk';
import { afterEach, beforeEach, expect, vi } from 'vitest';
import type { TurnSignal } from '../../src/acp/translation-context.js';
import { AppServerClient } from '../../src/app-server/client.js';
import { buildConfig } from '../../src/config/load.js';
import type { HubConfig } from '../../src/config/schema.js';
import { sessionMarks } from '../../src/daemon/domain-parts.js';
import { workspaceParts } from '../../src/daemon/http-parts.js';
import type { ConnectionAuthor } from '../../src/domain/people/author.js';
import { HubCore } from '../../src/domain/hub-core.js';
import { PromptFlow } from '../../src/domain/prompts/prompt-flow.js';
import type { PromptResult } from '../../src/domain/prompts/prompt-queue.js';
import type { SessionState } from '../../src/domain/sessions/session-state.js';
import { HubError } from '../../src/errors.js';
import { createLogger } from '../../src/logger.js';
import { DRAFT_UPDATE } from '../../src/domain/delivery/draft-updates.js';
import { RecorderClient } from './helpers.js';
import { RecordingBackend, type RecordedCall } from './recording-backend.js';

/** The -32010 refusal of a send while another prompt holds the child's lock. */
export const BUSY = { code: -32010, message: 'A prompt is already running' };

/** One `session/prompt` as its prompter sees it: how often it was answered, and with what. */
export interface Asked {
  settles: number;
  result?: PromptResult & { queuedBehind: number };
  error?: unknown;
}

/** How a prompt's end reached the clients: the draft's `turn_complete` or the journaled failed/interrupted marker. */
export type SeenEnd = { turnComplete: string; turnId?: string } | { turnEnded: string; promptId?: string };

/** Lets every answered request's promise chain run to its end (setImmediate must not be faked). */
export function settle(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}

export const started = (turnId: string, inputId?: string, background = false): Extract<TurnSignal, { type: 'turn_started' }> => ({
  type: 'turn_started',
  turnId,
  ...(inputId === undefined ? {} : { inputId }),
  background,
});

export function ended(
  turnId: string,
  inputId: string | undefined,
  outcome: 'success' | 'cancelled' | 'failed' = 'success',
  opts: { background?: boolean; stopReason?: StopReason; error?: { type: string; message: string } } = {},
): Extract<TurnSignal, { type: 'turn_ended' }> {
  return {
    type: 'turn_ended',
    turnId,
    ...(inputId === undefined ? {} : { inputId }),
    background: opts.background ?? false,
    outcome,
    stopReason: opts.stopReason ?? (outcome === 'cancelled' ? 'cancelled' : 'end_turn'),
    ...(opts.error === undefined ? {} : { error: opts.error }),
  };
}

export function hubCode(err: unknown): string | undefined {
  return err instanceof HubError ? err.code : undefined;
}

export class FlowRig {
  readonly root = fs.mkdtempSync(path.join(os.tmpdir(), 'zcode-hub-prompt-flow-'));
  readonly config: HubConfig;
  readonly backend: RecordingBackend;
  readonly core: HubCore;
  readonly flow: PromptFlow;
  readonly session: SessionState;
  readonly alice = new RecorderClient({ name: 'alice' });
  readonly bob = new RecorderClient({ name: 'bob' });
  /** A watcher with no prompts of its own that opted into the draft's `turn_complete`: sees every end the session announces. */
  readonly carol = new RecorderClient({ name: 'carol', draftUpdates: new Set([DRAFT_UPDATE.turnComplete]) });
  /** Whose `session/cancel` settled the session's pending interactions (the interaction flow's hook). */
  readonly cancelledInteractions: ConnectionAuthor[] = [];

  constructor() {
    const workspace = path.join(this.root, 'workspace');
    fs.mkdirSync(workspace, { recursive: true });
    this.config = buildConfig({
      host: '127.0.0.1',
      port: 0,
      stateDir: path.join(this.root, 'state'),
      backend: 'sim',
      workspace,
      providerFile: path.join(this.root, 'provider_config.json'),
      logLevel: 'silent',
    });
    this.backend = new RecordingBackend(this.config.limits.forwardRequestTimeoutMs);
    const logger = createLogger({ level: 'silent' });
    const roots = workspaceParts(this.config).roots;
    this.core = new HubCore({
      backend: this.backend,
      appServer: new AppServerClient(this.backend),
      config: this.config,
      logger,
      roots,
      marks: sessionMarks(this.config),
    });
    this.flow = new PromptFlow(this.core, { cancelInteractions: (_s, by) => this.cancelledInteractions.push(by) });
    this.session = this.core.ensureSession('s1', workspace);
    for (const client of [this.alice, this.bob, this.carol])
      this.session.attachments.set(client.clientId, { client, sessionId: 's1', replaying: false, buffer: [], attachedAt: 0 });
  }

  close(): void {
    this.flow.close();
    fs.rmSync(this.root, { recursive: true, force: true });
  }

  /** A `session/prompt` of `client`, recorded as its prompter would see it answered. */
  ask(client: RecorderClient, text: string, withdrawn?: AbortSignal): Asked {
    const asked: Asked = { settles: 0 };
    this.flow.prompt(client, this.session, [{ type: 'text', text }], withdrawn).then(
      (result) => {
        asked.settles += 1;
        asked.result = result;
      },
      (error: unknown) => {
        asked.settles += 1;
        asked.error = error;
      },
    );
    return asked;
  }

  /** The open `session/send` (it must carry `text`), and the prompt id it carries as its input id. */
  sendOf(text: string): { call: RecordedCall; inputId: string } {
    const call = this.backend.only('session/send');
    expect(call.params['content']).toBe(text);
    return { call, inputId: String(call.params['inputId']) };
  }

  /** How many `session/send`s carried this text (a prompt sent twice would show here). */
  sendsOf(text: string): number {
    return this.backend.all('session/send').filter((c) => c.params['content'] === text).length;
  }

  /** Answers both stops (legacy `session/stop` and v4 `stop`), as a child that takes them does. */
  answerStops(): void {
    for (const c of this.backend.open('session/stop')) c.answer({});
    for (const c of this.backend.open('v4/command'))
      if (c.params['type'] === 'stop') c.answer({ commandId: c.params['commandId'], status: 'accepted' });
  }

  /** Every prompt end the watcher saw, in order. */
  endsSeen(client: RecorderClient = this.carol): SeenEnd[] {
    const ends: SeenEnd[] = [];
    for (const frame of client.sent) {
      const msg = JSON.parse(frame.text) as { method?: string; params?: { update?: Record<string, unknown> } };
      if (msg.method !== 'session/update') continue;
      const update = msg.params?.update ?? {};
      if (update['sessionUpdate'] === 'turn_complete')
        ends.push({
          turnComplete: String(update['stopReason']),
          ...(update['turnId'] === undefined ? {} : { turnId: String(update['turnId']) }),
        });
      const marker = (update['_meta'] as { zcode?: { turnEnded?: { outcome: string; promptId?: string } } } | undefined)?.zcode?.turnEnded;
      if (marker) ends.push({ turnEnded: marker.outcome, ...(marker.promptId === undefined ? {} : { promptId: marker.promptId }) });
    }
    return ends;
  }

  /** The open send (it must carry `text`) is taken and its turn `turnId` starts. */
  async take(text: string, turnId: string): Promise<{ inputId: string }> {
    const { call, inputId } = this.sendOf(text);
    call.answer({});
    await settle();
    this.flow.onTurnStarted(this.session, started(turnId, inputId));
    return { inputId };
  }

  /** Alice cancels and the child takes both stops; whether the turn ends is the test's to say. */
  async stopTaken(): Promise<void> {
    void this.flow.cancel(this.alice, this.session);
    await settle();
    this.answerStops();
    await settle();
  }

  /** Runs the open send's prompt through a plain turn, as the child does: taken, started, ended, its boundary. */
  async runTurn(text: string, turnId: string): Promise<string> {
    const { call, inputId } = this.sendOf(text);
    this.flow.onPromptStarted(this.session);
    call.answer({});
    await settle();
    this.flow.onTurnStarted(this.session, started(turnId, inputId));
    this.flow.onTurnEnded(this.session, ended(turnId, inputId));
    this.flow.onReady(this.session, false);
    await settle();
    return inputId;
  }
}

/**
 * A new FlowRig for every test of the file, handed to `take`, on a fake clock: only the timers
 * the flow arms are faked, setImmediate stays real so settle() can drain promise chains.
 */
export function useFlowRig(take: (rig: FlowRig) => void): void {
  let current: FlowRig | undefined;
  beforeEach(() => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    current = new FlowRig();
    take(current);
  });
  afterEach(() => {
    current?.close();
    vi.useRealTimers();
  });
}
