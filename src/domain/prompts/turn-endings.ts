/**
 * What a prompt and every client are told when a turn does not end normally: the agent failed
 * it (`turn.failed`, `prompt_failed`) or the agent's process went away under it (crash,
 * crash loop, stop). Pure: prompt-flow.ts decides when; this decides the words and codes.
 */
import type { TurnEnded as EndMarker } from '../../acp/turn-ended.js';
import type { ErrorDetail } from '../../acp/zcode-event-schema.js';
import { HubError } from '../../errors.js';

/** Why the agent's process went away, as the backend link reported it. */
export interface BackendLoss {
  state: 'restarting' | 'failed' | 'stopped';
}

/** What clients are told when the agent's process went away mid-turn. */
export function lostError(lost: BackendLoss): EndMarker['error'] {
  switch (lost.state) {
    case 'failed':
      return {
        type: 'backend_failed',
        message:
          'The agent kept crashing and the hub stopped restarting it (crash loop). An admin can restart it from Settings, with POST /api/backend/restart, or by restarting zcode-hub.',
      };
    case 'stopped':
      return { type: 'backend_stopped', message: 'The agent was stopped during this turn; what it said so far is kept.' };
    case 'restarting':
      return { type: 'backend_restarted', message: 'The agent restarted during this turn; what it said so far is kept.' };
  }
}

/** The agent's ErrorDetail as clients see it (never empty). */
export function failureOf(error: ErrorDetail | undefined): EndMarker['error'] {
  return {
    message: error?.message || 'The agent could not run this prompt',
    ...(error?.code === undefined ? {} : { code: error.code }),
    ...(error?.type === undefined ? {} : { type: error.type }),
  };
}

/** The error a prompt cut off by the agent's exit is answered with (a `failed` backend needs an admin). */
export function lostPromptError(lost: BackendLoss, promptId?: string): HubError {
  return new HubError('HUB_ERR_BACKEND_UNAVAILABLE', lostError(lost).message, {
    backend: lost.state,
    ...(promptId === undefined ? {} : { promptId }),
  });
}

/**
 * What a prompt is answered with when the hub closes before its turn ends: as when the agent's
 * process goes away (`backend: stopped`). The running prompt's carries its `promptId`: its turn's
 * ending will be in the journal (the `hub_restarted` marker a restarted hub serves); a queued
 * prompt's does not, as nothing will be journaled for it.
 */
export function shuttingDown(promptId?: string): HubError {
  return new HubError('HUB_ERR_BACKEND_UNAVAILABLE', 'The hub is shutting down', {
    backend: 'stopped',
    ...(promptId === undefined ? {} : { promptId }),
  });
}

/** The error a prompt whose turn the agent failed is answered with (HUB_ERR_TURN_FAILED, never end_turn). */
export function turnFailedError(failure: EndMarker['error'], promptId: string, turnId: string | undefined): HubError {
  return new HubError('HUB_ERR_TURN_FAILED', `The agent could not finish this turn: ${failure.message}`, {
    promptId,
    ...(turnId === undefined ? {} : { turnId }),
    error: failure,
  });
}
