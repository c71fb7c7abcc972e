/**
 * The session Settings object (docs/APP-SERVER.md §3.6), defined once: a snapshot's `settings`
 * and the patch most `state.updated` notifications carry (§5.8) — the current and available
 * models, the thought level, the mode. The simulator builds it to the strict reading; the hub
 * reads it leniently, where every part may be missing.
 */
import { z } from 'zod';
import { drift, message, unread } from './message.js';
import { modelRef } from './session-info.js';
import { SESSION_MODES } from './session-info.js';
import { modelSelection } from './model.js';
import { strPlus } from './text.js';

const optStr = z.string().optional();
const optNum = z.number().optional();
const optBool = z.boolean().optional();
const positive = z.number().int().positive();

/** A level a model or the session offers. */
export const level = message({ value: drift(strPlus, z.string()), label: drift(strPlus, optStr), description: optStr });

/** A model's `reasoning` (§3.6): the levels it takes; one is required when present (§3.2). */
export const reasoning = message({
  levels: drift(z.array(level.strict), z.array(level.lenient).default([])),
  defaultLevel: drift(strPlus.optional(), optStr),
});

const inputFormat = z.strictObject({
  supportsText: z.boolean(),
  supportsImage: z.boolean(),
  supportsVideo: z.boolean(),
  supportsAudio: z.boolean(),
  supportsPdf: z.boolean(),
});

/** A ModelOption: an entry of `settings.model.available`. */
export const modelOption = message({
  ref: modelSelection.field(),
  label: drift(strPlus, optStr),
  providerLabel: drift(strPlus.optional(), optStr),
  description: unread(z.string().optional()),
  contextWindow: drift(positive.optional(), optNum),
  maxOutputTokens: unread(positive.optional()),
  reasoning: reasoning.optional(),
  properties: unread(z.strictObject({ inputFormat, outputFormat: z.strictObject({ supportsText: z.boolean() }) })),
  disabledReason: unread(z.string().optional()),
});
export type ModelOption = z.infer<typeof modelOption.strict>;

/**
 * The model list as the hub reads it: entry by entry, an unreadable one left out (§5.6 of
 * docs/APP-SERVER.md) — one bad option from a provider must not cost the session its snapshot.
 */
const readableModelOptions = z.array(z.unknown()).transform((entries) =>
  entries.flatMap((e) => {
    const read = modelOption.lenient.safeParse(e);
    return read.success ? [read.data] : [];
  }),
);

const modelSettings = message({
  current: modelSelection.optional(),
  available: drift(z.array(modelOption.strict), readableModelOptions.optional()),
  lastUsed: unread(modelRef.strict.optional()),
});

const thoughtLevelSettings = message({
  enabled: drift(z.boolean(), optBool),
  current: drift(strPlus.optional(), optStr),
  defaultLevel: unread(strPlus.optional()),
  available: drift(z.array(level.strict), z.array(level.lenient).optional()),
});

export const settings = message({
  model: drift(modelSettings.strict, modelSettings.lenient.optional()),
  thoughtLevel: drift(thoughtLevelSettings.strict, thoughtLevelSettings.lenient.optional()),
  mode: drift(z.strictObject({ current: z.enum(SESSION_MODES) }), z.looseObject({ current: optStr }).optional()),
  permission: drift(
    z.strictObject({ mode: z.string().optional(), rulesRevision: z.number().optional() }).optional(),
    z.looseObject({}).optional(),
  ),
});
/** Settings as the CLI sends them. */
export type StrictSettings = z.infer<typeof settings.strict>;
/** Settings (or a patch of them) as the hub reads them. */
export type SettingsPatch = z.infer<typeof settings.lenient>;
