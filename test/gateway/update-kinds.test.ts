import { describe, expect, it } from 'vitest';
import { Frame } from '../../src/domain/delivery/frame.js';
import {
  ALL_DRAFT_KINDS,
  announcedSessionUpdates,
  BASE_UPDATE_KINDS,
  DRAFT_KINDS,
  draftKindsAnnounced,
  FOLDED_UPDATE_METHOD,
  frameForKinds,
  LATER_V1_KINDS,
  REPLAY_COMPLETE,
  updateKindsFor,
  withDraftKinds,
} from '../../src/gateway/update-kinds.js';

const update = (sessionUpdate: string, extra: Record<string, unknown> = {}, method?: string): Frame =>
  new Frame(
    JSON.stringify({
      jsonrpc: '2.0',
      method: 'session/update',
      params: { sessionId: 's', update: { sessionUpdate, ...extra }, _meta: { zcode: { seq: 7 } } },
    }),
    method,
  );

describe('which update kinds a client is sent (the rule)', () => {
  it('an old client (protocol 1, no clientInfo) gets the base kinds only', () => {
    const kinds = updateKindsFor({ protocolVersion: 1, hasClientInfo: false });
    expect([...(kinds ?? [])].sort()).toEqual([...BASE_UPDATE_KINDS].sort());
  });

  it('a current v1 client (clientInfo) gets the later v1 kinds too, not replay_complete', () => {
    const kinds = updateKindsFor({ protocolVersion: 1, hasClientInfo: true });
    for (const k of [...BASE_UPDATE_KINDS, ...LATER_V1_KINDS]) expect(kinds?.has(k)).toBe(true);
    expect(kinds?.has(REPLAY_COMPLETE)).toBe(false);
  });

  it('protocol 2 gets every v1 kind but not replay_complete: the hub answers 1, so the connection speaks v1', () => {
    for (const hasClientInfo of [false, true]) {
      const kinds = updateKindsFor({ protocolVersion: 2, hasClientInfo });
      expect([...(kinds ?? [])].sort()).toEqual([...BASE_UPDATE_KINDS, ...LATER_V1_KINDS].sort());
    }
  });

  it('an announced list overrides the guess both ways', () => {
    const narrow = updateKindsFor({ protocolVersion: 1, hasClientInfo: true, sessionUpdates: ['usage_update'] });
    expect(narrow?.has('usage_update')).toBe(true);
    expect(narrow?.has('session_info_update')).toBe(false);
    const wide = updateKindsFor({ protocolVersion: 1, hasClientInfo: false, sessionUpdates: [REPLAY_COMPLETE] });
    expect(wide?.has(REPLAY_COMPLETE)).toBe(true);
    expect(wide?.has('tool_call')).toBe(true);
  });

  it('reads _meta.zcode.sessionUpdates leniently', () => {
    expect(
      announcedSessionUpdates({
        _meta: { zcode: { sessionUpdates: ['usage_update', 3, '', 'no_such_kind', 'usage_update', 'replay_complete'] } },
      }),
    ).toEqual(['usage_update', 'replay_complete']);
    expect(announcedSessionUpdates({ _meta: { zcode: { sessionUpdates: 'a' } } })).toBeUndefined();
    expect(announcedSessionUpdates(undefined)).toBeUndefined();
    expect(announcedSessionUpdates({ _meta: null })).toBeUndefined();
  });
});

describe('what a client gets for a kind it cannot parse', () => {
  const old = updateKindsFor({ protocolVersion: 1, hasClientInfo: false });

  it('base kinds pass unchanged (the same frame)', () => {
    const f = update('tool_call', { toolCallId: 'c', title: 't' }, 'session/update');
    expect(frameForKinds(f, old)).toBe(f);
  });

  it('a later kind is folded into _zcode/session_update with the same params, built once', () => {
    const f = update('usage_update', { used: 1, size: 2 }, 'session/update');
    const folded = frameForKinds(f, old);
    expect(folded?.method).toBe(FOLDED_UPDATE_METHOD);
    expect(JSON.parse(folded!.text)).toEqual({ jsonrpc: '2.0', method: FOLDED_UPDATE_METHOD, params: JSON.parse(f.text).params });
    expect(frameForKinds(f, old)).toBe(folded);
  });

  it('replay_complete is dropped for a client that does not know it', () => {
    expect(frameForKinds(update(REPLAY_COMPLETE), old)).toBeUndefined();
    expect(frameForKinds(update(REPLAY_COMPLETE), updateKindsFor({ protocolVersion: 2, hasClientInfo: true }))).toBeUndefined();
    const listed = updateKindsFor({ protocolVersion: 1, hasClientInfo: true, sessionUpdates: [REPLAY_COMPLETE] });
    expect(frameForKinds(update(REPLAY_COMPLETE), listed)).toBeDefined();
  });

  it('journal frames without a method are recognised; other messages and quoted text are left alone', () => {
    expect(frameForKinds(update('session_info_update'), old)?.method).toBe(FOLDED_UPDATE_METHOD);
    const chat = update('agent_message_chunk', { content: { type: 'text', text: '"update":{"sessionUpdate":"usage_update"}' } });
    expect(frameForKinds(chat, old)).toBe(chat);
    const result = new Frame(JSON.stringify({ jsonrpc: '2.0', id: 1, result: { updates: [{ sessionUpdate: 'usage_update' }] } }));
    expect(frameForKinds(result, old)).toBe(result);
    const other = new Frame(JSON.stringify({ jsonrpc: '2.0', method: '_zcode/turn_state', params: {} }), '_zcode/turn_state');
    expect(frameForKinds(other, old)).toBe(other);
  });

  it('a client that parses every kind gets every frame as it is', () => {
    const f = update('usage_update');
    expect(frameForKinds(f, undefined)).toBe(f);
  });
});

describe('the multi-client draft kinds: only to clients that opted in', () => {
  const everyone = [
    updateKindsFor({ protocolVersion: 1, hasClientInfo: false }),
    updateKindsFor({ protocolVersion: 1, hasClientInfo: true }),
    updateKindsFor({ protocolVersion: 2, hasClientInfo: true }),
  ];

  it('no protocol version implies them: none is opted into without announcing it', () => {
    for (const client of [
      { protocolVersion: 1, hasClientInfo: false },
      { protocolVersion: 1, hasClientInfo: true },
      { protocolVersion: 2, hasClientInfo: true },
    ]) {
      expect(draftKindsAnnounced(client).size).toBe(0);
    }
  });

  it('a client with a kind list that did not opt in drops them, not folds them (the sender filters first)', () => {
    const narrow = everyone.filter((k) => k !== undefined);
    expect(narrow.length).toBe(3);
    for (const kind of DRAFT_KINDS) for (const kinds of narrow) expect(frameForKinds(update(kind), kinds)).toBeUndefined();
  });

  it('a client that takes every kind is handed every frame untouched, without a look at its kind', () => {
    // No announcement leads here since the hub answers protocol 1 to everyone: the open set is
    // what a connection has before `initialize`, and what `withDraftKinds` keeps.
    const everyKind = undefined;
    for (const kind of [...BASE_UPDATE_KINDS, ...LATER_V1_KINDS, REPLAY_COMPLETE, ...DRAFT_KINDS]) {
      const frame = update(kind);
      expect(frameForKinds(frame, everyKind)).toBe(frame);
    }
    const other = new Frame('{"jsonrpc":"2.0","method":"_zcode/turn_state","params":{}}', '_zcode/turn_state');
    expect(frameForKinds(other, everyKind)).toBe(other);
  });

  it('attaching by the draft name adds them to what the client had, and keeps the rest as it was', () => {
    const old = withDraftKinds(updateKindsFor({ protocolVersion: 1, hasClientInfo: false }));
    for (const kind of DRAFT_KINDS) expect(frameForKinds(update(kind), old)).toBeDefined();
    expect(frameForKinds(update('usage_update'), old)?.method).toBe(FOLDED_UPDATE_METHOD);
    // A client that takes every kind keeps taking every kind (the fast path stays).
    expect(withDraftKinds(undefined)).toBeUndefined();
    expect([...ALL_DRAFT_KINDS].sort()).toEqual([...DRAFT_KINDS].sort());
  });

  it('a client may announce them in sessionUpdates', () => {
    const announced = {
      protocolVersion: 1,
      hasClientInfo: true,
      sessionUpdates: announcedSessionUpdates({ _meta: { zcode: { sessionUpdates: ['turn_complete'] } } }) ?? [],
    };
    expect([...draftKindsAnnounced(announced)]).toEqual(['turn_complete']);
    const listed = updateKindsFor(announced);
    expect(frameForKinds(update('turn_complete'), listed)).toBeDefined();
    expect(frameForKinds(update('prompt_received'), listed)).toBeUndefined();
  });
});
