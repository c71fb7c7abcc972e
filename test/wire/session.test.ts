/**
 * SessionInfo, Settings and the snapshot (src/wire/session-info.ts, settings.ts, snapshot.ts):
 * the strict reading refuses what the CLI would never send; the hub reads with the lenient
 * reading of the same definition and takes each documented drift.
 */
import { describe, expect, it } from 'vitest';
import { sessionInfoSchema, snapshotSchema } from '../../src/app-server/session-schemas.js';
import { settingsPatchSchema } from '../../src/acp/zcode-event-schema.js';
import { SessionModeSchema, WorkspaceRefSchema } from '../../src/simulator/schemas/common.js';
import { sessionInfo, workspaceRef } from '../../src/wire/session-info.js';
import { settings } from '../../src/wire/settings.js';
import { snapshot } from '../../src/wire/snapshot.js';

const workspace = { workspacePath: '/w', workspaceKey: '/w' };
const info = {
  sessionId: 'sess_1',
  workspace,
  sessionKind: 'interactive',
  title: '',
  mode: 'build',
  status: 'idle',
  createdAt: 1,
  updatedAt: 2,
};
const properties = {
  inputFormat: { supportsText: true, supportsImage: false, supportsVideo: false, supportsAudio: false, supportsPdf: false },
  outputFormat: { supportsText: true },
};
const fullSettings = {
  model: {
    current: { providerId: 'sim', modelId: 'sim-pro', options: { reasoningLevel: 'low' } },
    available: [
      {
        ref: { providerId: 'sim', modelId: 'sim-pro' },
        label: 'Sim Pro',
        reasoning: { levels: [{ value: 'low', label: 'low' }] },
        properties,
      },
    ],
  },
  thoughtLevel: { enabled: true, current: 'low', available: [{ value: 'low', label: 'low' }] },
  mode: { current: 'build' },
};
const snap = {
  protocol: { name: 'ZCode Protocol', version: 1 },
  session: info,
  settings: fullSettings,
  projection: {
    sessionId: 'sess_1',
    status: 'idle',
    mode: 'build',
    turnCount: 0,
    totalTokenCount: 0,
    contextUsed: 0,
    contextWindow: 1000,
    pendingPermissions: [],
    activeToolCalls: [],
    backgroundJobs: [],
  },
  runtime: { eventSeq: 4, stateRevision: 1, pendingRequestIds: [] },
  messages: [],
};

describe('SessionInfo, one definition', () => {
  it('the hub and the simulator read with the two readings of the same definitions', () => {
    expect(sessionInfoSchema).toBe(sessionInfo.lenient);
    expect(WorkspaceRefSchema).toBe(workspaceRef.strict);
    expect(SessionModeSchema.options).toContain('auto');
  });

  it('strict wants the kind, mode, status and times; the hub needs only the id', () => {
    expect(sessionInfo.strict.safeParse(info).success).toBe(true);
    const { sessionKind: _k, createdAt: _c, ...older } = info;
    expect(sessionInfo.strict.safeParse(older).success).toBe(false);
    expect(sessionInfo.lenient.parse({ sessionId: 'sess_1' })).toEqual({ sessionId: 'sess_1', title: '' });
    expect(sessionInfo.strict.safeParse({ ...info, sessionId: ' ' }).success).toBe(false);
    expect(sessionInfo.lenient.safeParse({ title: 'no id' }).success).toBe(false);
  });

  it('a newer mode or status, a model with options, an unknown key: strict refuses, the hub keeps', () => {
    const drifted = { ...info, mode: 'review', status: 'sleeping', model: { providerId: 'sim', modelId: 'm', options: {} }, pinned: true };
    expect(sessionInfo.strict.safeParse(drifted).success).toBe(false);
    expect(sessionInfo.strict.safeParse({ ...info, model: { providerId: 'sim', modelId: 'm', options: {} } }).success).toBe(false);
    expect(sessionInfo.lenient.parse(drifted)).toMatchObject({ mode: 'review', status: 'sleeping', pinned: true });
  });
});

describe('Settings, one definition', () => {
  it('the hub reads a settings patch with the lenient reading', () => {
    expect(settingsPatchSchema).toBe(settings.lenient);
    expect(settings.strict.safeParse(fullSettings).success).toBe(true);
  });

  it('a model option without its properties, a blank level label: strict refuses, the hub reads', () => {
    const { properties: _p, ...bare } = fullSettings.model.available[0] as (typeof fullSettings.model.available)[number];
    const drifted = { ...fullSettings, model: { available: [bare] }, thoughtLevel: { available: [{ value: 'low' }] } };
    expect(settings.strict.safeParse(drifted).success).toBe(false);
    expect(settings.lenient.parse(drifted).model?.available?.[0]?.reasoning?.levels).toEqual([{ value: 'low', label: 'low' }]);
  });

  it('an unreadable model option: strict refuses the settings, the hub leaves that option out and reads the rest', () => {
    const good = fullSettings.model.available[0] as (typeof fullSettings.model.available)[number];
    const drifted = { ...fullSettings, model: { ...fullSettings.model, available: [{ junk: true }, good] } };
    expect(settings.strict.safeParse(drifted).success).toBe(false);
    expect(settings.lenient.parse(drifted).model?.available).toEqual([settings.lenient.parse(fullSettings).model?.available?.[0]]);
  });

  it('a patch of only some parts, an old `modelID` spelling: the hub reads it, strict refuses', () => {
    const patch = { model: { current: { providerID: 'zai', modelID: 'glm-5' } } };
    expect(settings.strict.safeParse(patch).success).toBe(false);
    expect(settings.lenient.parse(patch)).toEqual(patch);
    expect(settings.lenient.parse({})).toEqual({});
  });
});

describe('the session snapshot, one definition', () => {
  it('the hub reads it with the lenient reading', () => {
    expect(snapshotSchema).toBe(snapshot.lenient);
    expect(snapshot.strict.safeParse(snap).success).toBe(true);
  });

  it('an unknown top-level key, a projection missing a count, a bad message: strict refuses', () => {
    expect(snapshot.strict.safeParse({ ...snap, extra: 1 }).success).toBe(false);
    const { turnCount: _t, ...projection } = snap.projection;
    expect(snapshot.strict.safeParse({ ...snap, projection }).success).toBe(false);
    expect(snapshot.strict.safeParse({ ...snap, messages: [{ info: { role: 'user' }, parts: [] }] }).success).toBe(false);
    expect(snapshot.strict.safeParse({ ...snap, slashCommands: [{ name: '', description: 'x' }] }).success).toBe(false);
  });

  it('an older CLI’s snapshot without settings, runtime or messages: the hub fills the defaults', () => {
    expect(snapshot.lenient.parse({ session: { sessionId: 'sess_1' } })).toEqual({
      session: { sessionId: 'sess_1', title: '' },
      settings: {},
      runtime: { eventSeq: 0 },
      messages: [],
    });
    // Messages and slash commands are read one by one elsewhere: a bad one does not fail the snapshot.
    expect(snapshot.lenient.safeParse({ ...snap, messages: [5], slashCommands: 'none', projection: null }).success).toBe(true);
  });
});
