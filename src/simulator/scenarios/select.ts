/**
 * Picks what a turn does. The `default` scenario reads keywords in the prompt
 * (case-insensitive, whole words, optional plural `s`); the keyword that appears first in the
 * prompt wins; no keyword → a plain answer (ARCHITECTURE.md §1). Any other scenario name forces
 * that behaviour for every user turn. A prompt that is the simulator's own `/review` command
 * runs that command.
 */
import { reviewFocus } from './review.js';

export const KEYWORDS = [
  'permission',
  'question',
  'plan',
  'background',
  'fail',
  'slow',
  'todo',
  'subagent',
  'edit',
  'screenshot',
  'deploy',
  'tour',
] as const;
export type Keyword = (typeof KEYWORDS)[number];

/** Behaviours a user turn can take; the internal ones are used by the runner for synthetic turns. */
export type Behaviour = 'answer' | Keyword | 'review' | 'bench' | 'background-followup' | 'compact' | 'goal' | 'workflow-launch';

/** Names accepted by `--scenario` / `ZCODE_SIM_SCENARIO`. */
export const SCENARIO_NAMES: readonly string[] = ['default', 'answer', ...KEYWORDS, 'bench'];

const PATTERN = new RegExp(`\\b(${KEYWORDS.join('|')})s?\\b`, 'i');

/** Pure: the behaviour of a turn given its prompt, the `--scenario` name and the bench switch. */
export function selectBehaviour(prompt: string, scenario = 'default', benchMode = false): Behaviour {
  if (benchMode || scenario === 'bench') return 'bench';
  if (scenario !== 'default') return scenario as Behaviour;
  // The simulator's own slash command (announced in the snapshot's `slashCommands`).
  if (reviewFocus(prompt) !== undefined) return 'review';
  const m = PATTERN.exec(prompt);
  return m?.[1] ? (m[1].toLowerCase() as Keyword) : 'answer';
}
