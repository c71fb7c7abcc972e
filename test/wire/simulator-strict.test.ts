/**
 * The simulator speaks the contract: what it sends (the real child, over stdio) parses with the
 * strict readings of src/wire — so the hub's lenient readings are tested against messages
 * that are exactly what the definition allows, not against what the simulator happens to send.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { sessionEventEnvelope } from '../../src/wire/events.js';
import { requestPermissionParams } from '../../src/wire/interactions.js';
import { commandAck } from '../../src/wire/v4.js';
import { RECOMMENDED_PREFERENCES, SimClient, type Message } from '../simulator/sim-client.js';

let sim: SimClient | undefined;
afterEach(async () => {
  await sim?.close();
  sim = undefined;
});

describe('the simulator sends what the strict readings accept', () => {
  it('session events, a permission request and a v4 ACK of one turn', async () => {
    sim = await SimClient.start({
      args: ['--turn-delay-scale', '0.2'],
      onReverse: (m: Message) => {
        if (m.method === 'session/requestRuntimePreferences') return { result: RECOMMENDED_PREFERENCES };
        if (m.method === 'interaction/requestPermission') return { result: m.params.options[0].response };
        return { error: { code: -32601, message: 'Method not found' } };
      },
    });
    const sessionId = await sim.openSession();
    await sim.prompt(sessionId, 'needs permission');
    const ack = await sim.call('v4/command', {
      commandId: 'c-strict-1',
      clientId: 'test',
      sessionId,
      type: 'renameSession',
      payload: { title: 'Strict' },
      issuedAt: Date.now(),
    });

    const events = sim.messages.filter((m) => m.method === 'session/event');
    const permissions = sim.messages.filter((m) => m.method === 'interaction/requestPermission');
    expect(events.length).toBeGreaterThan(3);
    expect(permissions.length).toBeGreaterThan(0);
    for (const e of events) expect(sessionEventEnvelope.strict.safeParse(e.params).error).toBeUndefined();
    for (const p of permissions) expect(requestPermissionParams.strict.safeParse(p.params).error).toBeUndefined();
    expect(commandAck.strict.parse(ack)).toMatchObject({ commandId: 'c-strict-1', status: 'accepted' });
  });
});
