/**
 * ARCHITECTURE.md §4.5 "optional policy timeout": an interaction still pending after
 * `interactionTimeoutMs` is settled `expired` — the child gets the cancel path's decline/deny,
 * the other copies are withdrawn and everyone hears `_zcode/interaction_resolved`. 0 = never.
 * One timer per pending interaction; any settlement clears it.
 */
import type { InteractionRecord as AcpInteraction } from '../../acp/interactions.js';
import type { HubCore } from '../hub-core.js';
import { declineResult } from './interaction-copies.js';
import type { InteractionRecord } from './interactions.js';

/** The expiry timers of the pending interactions; stays empty when `interactionTimeoutMs` is 0. */
export class InteractionExpiry {
  private readonly timers = new Map<string, NodeJS.Timeout>();

  constructor(private readonly core: HubCore) {}

  /** Starts (or restarts) the timer of a pending interaction. */
  arm(record: InteractionRecord, parsed: AcpInteraction): void {
    const ms = this.core.config.limits.interactionTimeoutMs;
    if (ms <= 0) return;
    const id = record.view.interactionId;
    this.clear(id);
    const timer = setTimeout(() => {
      this.timers.delete(id);
      if (this.core.interactions.get(id) !== record) return;
      this.core.interactions.settle(id, 'expired', declineResult(parsed, 'Nobody answered in time'), undefined);
    }, ms);
    this.timers.set(id, timer);
  }

  /** The interaction was settled: its timer ends. */
  clear(interactionId: string): void {
    const timer = this.timers.get(interactionId);
    if (timer === undefined) return;
    clearTimeout(timer);
    this.timers.delete(interactionId);
  }

  /** Clears every timer (the hub is closing; the interactions stay with the child). */
  close(): void {
    for (const timer of this.timers.values()) clearTimeout(timer);
    this.timers.clear();
  }
}
