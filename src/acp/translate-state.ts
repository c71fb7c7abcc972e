/**
 * `state.updated` (APP-SERVER.md §5.8) and ZCode Settings (§3.6) → hub facts and ACP
 * session config: the ready boundary for the prompt queue (§11 #6), modes and config options
 * (model, mode, thought level) for `session/new|load` results and `config_option_update`.
 */
import type { SessionConfigOption, SessionConfigSelectOption, SessionModeState, SessionUpdate } from '@agentclientprotocol/sdk';
import { settingsPatchSchema, stateUpdatedParamsSchema, type ModelSelectionLike, type SettingsPatch } from './zcode-event-schema.js';

/**
 * Reasons that end a turn holding the session's -32010 lock (§4.8 rules 2 and 4, §4.12, §4.13):
 * prompts end with `prompt_*`, compactions with `session_compact*`, goal continuations with
 * `goal_continuation_*`. Each releases the lock just before it is written.
 */
const LOCK_RELEASE_REASONS = new Set([
  'prompt_completed',
  'prompt_failed',
  'session_compacted',
  'session_compact_cancelled',
  'session_compact_failed',
  'goal_continuation_completed',
  'goal_continuation_failed',
]);

/** What a `state.updated` notification tells the domain. */
export interface StateFacts {
  sessionId?: string;
  revision: number;
  reason?: string;
  /** `prompt_started` / `compact_started`: the session is running. */
  running: boolean;
  /** The lock was released (a prompt, compaction or goal continuation ended): the safe point to send the next queued prompt (§11 #6). */
  ready: boolean;
  /** `prompt_failed`: the prompt failed, possibly before any `turn.*` event (§11 #11). */
  failed: boolean;
  /** The session Settings when the patch carries them (every reason but the two `*_started`). */
  settings?: SettingsPatch;
}

/** Parses `state.updated` params into facts; `undefined` when they are not a state update. */
export function stateFacts(params: unknown): StateFacts | undefined {
  const parsed = stateUpdatedParamsSchema.safeParse(params);
  if (!parsed.success) return undefined;
  const p = parsed.data;
  const running = p.reason === 'prompt_started' || p.reason === 'compact_started';
  const settings = running ? undefined : settingsPatchSchema.safeParse(p.patch);
  return {
    ...(p.sessionId === undefined ? {} : { sessionId: p.sessionId }),
    revision: p.revision,
    ...(p.reason === undefined ? {} : { reason: p.reason }),
    running,
    ready: p.reason !== undefined && LOCK_RELEASE_REASONS.has(p.reason),
    failed: p.reason === 'prompt_failed',
    ...(settings?.success === true ? { settings: settings.data } : {}),
  };
}

/** The session modes of §3.4, with what each means for permission prompts. */
export const ZCODE_MODES: ReadonlyArray<{ id: string; name: string; description: string }> = [
  { id: 'build', name: 'Build', description: 'Ask before risky tools' },
  { id: 'plan', name: 'Plan', description: 'Plan first; no edits until the plan is approved' },
  { id: 'edit', name: 'Edit', description: 'Edits allowed; ask before commands' },
  { id: 'guarded', name: 'Guarded', description: 'Ask before every tool with side effects' },
  { id: 'auto', name: 'Auto', description: 'The agent decides when to ask' },
  { id: 'yolo', name: 'YOLO', description: 'Never ask' },
];

/** ACP mode state for a current ZCode mode. */
export function modeState(currentMode: string): SessionModeState {
  return { currentModeId: currentMode, availableModes: ZCODE_MODES.map((m) => ({ ...m })) };
}

/** The config-option value naming a model: `providerId/modelId` (tolerates `providerID`/`modelID`). */
export function modelValueId(model: ModelSelectionLike): string | undefined {
  const provider = model.providerId ?? model.providerID;
  const id = model.modelId ?? model.modelID;
  return provider === undefined || id === undefined ? undefined : `${provider}/${id}`;
}

/** Splits a model config-option value back into a ModelSelection (provider ids have no `/`). */
export function parseModelValueId(value: string): { providerId: string; modelId: string } | undefined {
  const slash = value.indexOf('/');
  if (slash <= 0 || slash === value.length - 1) return undefined;
  return { providerId: value.slice(0, slash), modelId: value.slice(slash + 1) };
}

/** A model the domain knows (from the create/resume snapshot's full `model.available`, §3.6). */
export interface KnownModel {
  ref: ModelSelectionLike;
  label?: string;
  providerLabel?: string;
  /** Present on models that take a reasoning level (§3.2, §3.6 ModelOption). */
  reasoning?: { levels: ReadonlyArray<{ value: string }>; defaultLevel?: string | undefined };
}

/**
 * The ModelSelection `session/setModel` needs for `value` (§4.14, §11.11): a model with levels
 * gets one — the one asked for, else the current level when the model has it, else the model's
 * default, else its first — and a model without levels gets none (it would refuse one). A model
 * the hub has no catalogue entry for keeps the current level, as before.
 */
export function selectionForModel(
  value: string,
  known: readonly KnownModel[],
  currentLevel: string | undefined,
  requestedLevel?: string,
): { providerId: string; modelId: string; options?: { reasoningLevel: string } } | undefined {
  const ref = parseModelValueId(value);
  if (!ref) return undefined;
  const entry = known.find((m) => modelValueId(m.ref) === value);
  const withLevel = (level: string | undefined) => (level === undefined ? ref : { ...ref, options: { reasoningLevel: level } });
  if (!entry) return withLevel(requestedLevel ?? currentLevel);
  const levels = entry.reasoning?.levels.map((l) => l.value) ?? [];
  if (levels.length === 0) return ref;
  const pick = [requestedLevel, currentLevel, entry.reasoning?.defaultLevel, levels[0]].find((l) => l !== undefined && levels.includes(l));
  return withLevel(pick ?? requestedLevel);
}

/**
 * ACP config options (model, mode, thought level) from ZCode Settings. Pass `allModels` from a
 * create/resume snapshot: mutation snapshots list only the current model (§3.6).
 */
export function configOptions(settings: SettingsPatch, allModels?: readonly KnownModel[]): SessionConfigOption[] {
  const options: SessionConfigOption[] = [];
  const current = settings.model?.current === undefined ? undefined : modelValueId(settings.model.current);
  const models = allModels ?? settings.model?.available ?? [];
  const modelOptions = models.flatMap((m): SessionConfigSelectOption[] => {
    const value = modelValueId(m.ref);
    const label = typeof m.label === 'string' ? m.label : value;
    const description = typeof m.providerLabel === 'string' ? m.providerLabel : undefined;
    const levels = m.reasoning?.levels.map((l) => l.value) ?? [];
    // A picker shows the level choice a model needs before switching (docs/CLIENT-PROTOCOL.md).
    const zcode =
      levels.length === 0
        ? undefined
        : {
            reasoningLevels: levels,
            ...(m.reasoning?.defaultLevel === undefined ? {} : { defaultReasoningLevel: m.reasoning.defaultLevel }),
          };
    return value === undefined
      ? []
      : [
          {
            value,
            name: label ?? value,
            ...(description === undefined ? {} : { description }),
            ...(zcode === undefined ? {} : { _meta: { zcode } }),
          },
        ];
  });
  if (current !== undefined && !modelOptions.some((o) => o.value === current)) modelOptions.unshift({ value: current, name: current });
  if (current !== undefined) {
    options.push({ type: 'select', id: 'model', name: 'Model', category: 'model', currentValue: current, options: modelOptions });
  }
  const mode = settings.mode?.current;
  if (mode !== undefined) {
    options.push({
      type: 'select',
      id: 'mode',
      name: 'Mode',
      category: 'mode',
      currentValue: mode,
      options: ZCODE_MODES.map((m) => ({ value: m.id, name: m.name, description: m.description })),
    });
  }
  const thought = settings.thoughtLevel;
  if (thought?.enabled === true && thought.available !== undefined && thought.available.length > 0) {
    const levels = thought.available.map((l): SessionConfigSelectOption => {
      const description = typeof l.description === 'string' ? l.description : undefined;
      return { value: l.value, name: l.label ?? l.value, ...(description === undefined ? {} : { description }) };
    });
    const first = levels[0];
    options.push({
      type: 'select',
      id: 'thought_level',
      name: 'Thinking',
      category: 'thought_level',
      currentValue: thought.current ?? first?.value ?? '',
      options: levels,
    });
  }
  return options;
}

/** A `config_option_update` for the given Settings. */
export function configOptionUpdate(settings: SettingsPatch, allModels?: readonly KnownModel[]): SessionUpdate {
  return { sessionUpdate: 'config_option_update', configOptions: configOptions(settings, allModels) };
}
