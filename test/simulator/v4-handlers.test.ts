/**
 * The simulator's v4 handler table names every command type of the wire (src/wire/v4.ts), each
 * with its handler or as not simulated; the type system refuses a missing or an extra entry
 * (the `@ts-expect-error` lines below are checked by `npm run typecheck`). The real simulator
 * child answers each command that is not simulated with the §7.2 notImplemented ACK.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HANDLERS, type Handler, type V4HandlerTable } from '../../src/simulator/methods/v4-command-handlers.js';
import { CAS_TYPES, PAYLOADS } from '../../src/simulator/schemas/v4-params.js';
import { V4_COMMAND_TYPES, type V4CommandType } from '../../src/wire/v4.js';
import { SimClient } from './sim-client.js';

const accept: Handler = () => ({ status: 'accepted' });

// A table without one of the wire's commands does not compile…
const { sendText: _dropped, ...withoutSendText } = HANDLERS;
// @ts-expect-error sendText is missing
const missing: V4HandlerTable = withoutSendText;
// …nor one with a command the wire does not have.
const extra: V4HandlerTable = {
  ...HANDLERS,
  // @ts-expect-error brandNewCommand is not a command of the wire
  brandNewCommand: accept,
};
// @ts-expect-error the hub cannot send a type the wire does not have
const notOnTheWire: V4CommandType = 'brandNewCommand';

describe('the v4 handler table', () => {
  it('one entry per command type of the wire; a payload schema for exactly the simulated ones', () => {
    expect(Object.keys(HANDLERS).sort()).toEqual([...V4_COMMAND_TYPES].sort());
    const simulated = Object.entries(HANDLERS)
      .filter(([, h]) => h !== null)
      .map(([t]) => t);
    expect(Object.keys(PAYLOADS).sort()).toEqual(simulated.sort());
    // The type-level cases above are real values too: each is what it claims to be.
    expect([Object.keys(missing).sort(), Object.keys(extra).sort(), notOnTheWire]).toEqual([
      V4_COMMAND_TYPES.filter((t) => t !== 'sendText').sort(),
      [...V4_COMMAND_TYPES, 'brandNewCommand'].sort(),
      'brandNewCommand',
    ]);
  });

  describe('through the real simulator child', () => {
    let sim: SimClient;
    beforeAll(async () => {
      sim = await SimClient.start();
    });
    afterAll(async () => {
      await sim.close();
    });

    it('each known command that is not simulated is refused as not implemented; an unknown type as unknown', async () => {
      const sessionId = await sim.openSession();
      const command = (type: string, i: number) =>
        sim.call('v4/command', {
          commandId: `c-${i}`,
          clientId: 'test',
          sessionId,
          type,
          payload: {},
          issuedAt: Date.now(),
          ...(CAS_TYPES.has(type) ? { baseRevision: 0 } : {}),
        });
      const notSimulated = Object.entries(HANDLERS)
        .filter(([, h]) => h === null)
        .map(([t]) => t);
      expect(notSimulated.length).toBeGreaterThan(0);
      for (const [i, type] of notSimulated.entries())
        expect(await command(type, i), type).toMatchObject({ status: 'failed', reasonCode: 'fault.command.notImplemented' });
      // A command the wire marks cas needs baseRevision, and is stale against another revision.
      const followup = (commandId: string, extra: object) =>
        sim.call('v4/command', {
          commandId,
          clientId: 'test',
          sessionId,
          type: 'setFollowupMode',
          payload: { mode: 'guide' },
          issuedAt: Date.now(),
          ...extra,
        });
      expect(await followup('f-1', {})).toMatchObject({ status: 'rejected', message: 'baseRevision is required for setFollowupMode' });
      expect(await followup('f-2', { baseRevision: 7 })).toMatchObject({ status: 'stale', reasonCode: 'proto.staleRevision' });
      expect(await followup('f-3', { baseRevision: 0 })).toMatchObject({ status: 'accepted' });
      expect(await command('brandNewCommand', -1)).toMatchObject({
        status: 'rejected',
        reasonCode: 'proto.invalidPayload',
        message: 'Unknown command type: brandNewCommand',
      });
    });
  });
});
