/**
 * `_zcode/*` notifications are typed by method: a sender that passes the wrong params for a
 * method does not compile (the `@ts-expect-error` lines fail `npm run typecheck` the day the
 * check is lost), and `_zcode/backend_state` params are built in one place, to the schema.
 */
import { describe, expect, it } from 'vitest';
import { Broadcaster } from '../../src/domain/delivery/broadcast.js';
import { backendStateParams } from '../../src/domain/sessions/session-views.js';
import { ZCODE_NOTIFICATION } from '../../src/zcode-ext/methods.js';
import { ZCODE_NOTIFICATION_PARAMS } from '../../src/zcode-ext/schemas.js';

describe('_zcode/* sends typed by method', () => {
  it('takes a method’s own params and refuses another’s at compile time', () => {
    const b = new Broadcaster(10);
    const ok = b.serialize(ZCODE_NOTIFICATION.sessionDeleted, { sessionId: 's', deletedBy: { name: 'Ann' } });
    expect(JSON.parse(ok.text)).toMatchObject({ method: '_zcode/session_deleted', params: { sessionId: 's' } });
    // @ts-expect-error — `_zcode/turn_state` params need a state and a queue.
    b.serialize('_zcode/turn_state', { sessionId: 's' });
    // @ts-expect-error — `restarts` is a number.
    b.serialize(ZCODE_NOTIFICATION.backendState, { state: 'ready', epoch: 'e', restarts: '1' });
    // Methods outside the extension are shaped by their own builders.
    expect(b.serialize('session/update', { sessionId: 's', update: { sessionUpdate: 'plan' } }).updateKind).toBe('plan');
  });

  it('builds `_zcode/backend_state` to its schema, with and without a retry delay', () => {
    const schema = ZCODE_NOTIFICATION_PARAMS[ZCODE_NOTIFICATION.backendState];
    const base = { state: 'restarting', kind: 'sim', epoch: 3, restarts: 2 } as const;
    const waiting = backendStateParams({ ...base, nextRetryMs: 500 }, 'hub-3');
    expect(schema.parse(waiting)).toEqual({ state: 'restarting', epoch: 'hub-3', restarts: 2, nextRetryMs: 500 });
    expect(schema.parse(backendStateParams(base, 'hub-3'))).toEqual({ state: 'restarting', epoch: 'hub-3', restarts: 2 });
  });
});
