/**
 * The approval-rule fields the hub really sends (docs/CLIENT-PROTOCOL.md "Approval rules"), read
 * in one place: `approval` of an InteractionView (inbox, `_zcode/interaction_opened`), of a live
 * request's `_meta.zcode` and of a tool card's `tool_call_update._meta.zcode`; `mayAnswer` of a
 * view made for this device; the `rule` of a request a rule settled. Pure.
 */
import { arr, bool, num, rec, str, zmeta } from '../wire.js';

/** `approval`: for whom a request waits under an `ask` rule, and the votes so far. */
export interface ApprovalWire {
  rule: { id: string; description?: string };
  /** "waiting for an admin", "waiting for ann", "waiting for 2 people: ann or bob". */
  waitingFor: string;
  quorum: number;
  /** People who allowed so far, in order. */
  allowed: string[];
  /** "1 of 2 — ann allowed"; only with a quorum above 1. */
  progress?: string;
  state: 'open' | 'allowed' | 'denied';
}

/** `rule` of `_zcode/interaction_resolved` and of the settled card: an `allow`/`deny` rule decided it. */
export interface RuleDecisionWire {
  id: string;
  description?: string;
  decision: 'allow' | 'deny';
}

function ruleRef(v: unknown): { id: string; description?: string } | undefined {
  const r = rec(v);
  const id = str(r?.['id']);
  if (!id) return undefined;
  const description = str(r?.['description']);
  return description ? { id, description } : { id };
}

/** An `approval` object, or undefined when it is absent or not that shape. */
export function readApproval(v: unknown): ApprovalWire | undefined {
  const r = rec(v);
  const rule = ruleRef(r?.['rule']);
  const waitingFor = str(r?.['waitingFor']);
  const state = r?.['state'];
  if (!r || !rule || waitingFor === undefined || (state !== 'open' && state !== 'allowed' && state !== 'denied')) return undefined;
  const progress = str(r['progress']);
  return {
    rule,
    waitingFor,
    quorum: num(r['quorum']) ?? 1,
    allowed: arr(r['allowed']).flatMap((p) => (typeof p === 'string' ? [p] : [])),
    ...(progress ? { progress } : {}),
    state,
  };
}

/** A settled-by-rule `rule` object, or undefined. */
export function readRuleDecision(v: unknown): RuleDecisionWire | undefined {
  const ref = ruleRef(v);
  const decision = rec(v)?.['decision'];
  if (!ref || (decision !== 'allow' && decision !== 'deny')) return undefined;
  return { ...ref, decision };
}

/** `approval` of a live request (`params._meta.zcode.approval`) or of a tool card update. */
export function approvalInMeta(obj: unknown): ApprovalWire | undefined {
  return readApproval(zmeta(obj)['approval']);
}

/** `mayAnswer` of a view made for this device; undefined when the hub did not say. */
export function readMayAnswer(view: unknown): boolean | undefined {
  return bool(rec(view)?.['mayAnswer']);
}

/** "rule r (description)": how a rule is named on screen. */
export function ruleLabel(rule: { id: string; description?: string }): string {
  return rule.description ? `${rule.id} (${rule.description})` : rule.id;
}
