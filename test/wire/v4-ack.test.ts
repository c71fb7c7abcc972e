/** The v4 command ACK (src/wire/v4.ts): the simulator's ACK is the strict reading, the hub reads it leniently. */
import { describe, expect, it } from 'vitest';
import { commandAckSchema } from '../../src/app-server/session-schemas.js';
import { CommandEnvelopeSchema } from '../../src/simulator/schemas/v4-params.js';
import { commandAck, commandEnvelope } from '../../src/wire/v4.js';

const ack = { commandId: 'c-1', status: 'accepted', revisionAtDecision: 3 };

describe('the v4 command ACK, one definition', () => {
  it('the hub reads with the lenient reading of the same definition', () => {
    expect(commandAckSchema).toBe(commandAck.lenient);
  });

  it('an ACK without revisionAtDecision: strict refuses, the hub still acts on it', () => {
    const { revisionAtDecision: _r, ...older } = ack;
    expect(commandAck.strict.safeParse(older).success).toBe(false);
    expect(commandAck.lenient.parse(older)).toEqual(older);
  });

  it('an unknown status is refused both ways: the hub cannot act on it', () => {
    expect(commandAck.strict.safeParse({ ...ack, status: 'queued' }).success).toBe(false);
    expect(commandAck.lenient.safeParse({ ...ack, status: 'queued' }).success).toBe(false);
  });

  it('an unknown key: strict refuses, lenient keeps', () => {
    expect(commandAck.strict.safeParse({ ...ack, traceId: 't' }).success).toBe(false);
    expect(commandAck.lenient.parse({ ...ack, traceId: 't' })).toMatchObject({ traceId: 't' });
  });
});

describe('the v4 command envelope, one definition', () => {
  const envelope = { commandId: 'c-1', clientId: 'zcode-hub', sessionId: 's1', type: 'stop', payload: {}, issuedAt: 1 };

  it('the simulator reads what the hub builds with the same schema', () => {
    expect(CommandEnvelopeSchema).toBe(commandEnvelope);
    expect(commandEnvelope.parse(envelope)).toEqual(envelope);
  });

  it('refuses an envelope without its id, time or payload; extra keys pass, as on the CLI', () => {
    const { issuedAt: _i, ...noTime } = envelope;
    expect(commandEnvelope.safeParse(noTime).success).toBe(false);
    expect(commandEnvelope.safeParse({ ...envelope, payload: 'stop' }).success).toBe(false);
    expect(commandEnvelope.safeParse({ ...envelope, baseLogEpoch: ' ' }).success).toBe(false);
    expect(commandEnvelope.parse({ ...envelope, traceparent: 'x' })).toMatchObject({ traceparent: 'x' });
  });
});
