/**
 * Cheap field extraction from a received frame, for the load client's hot path. At load L one
 * process reads 50,000 frames/s for 100 sockets; a full `JSON.parse` + schema check per frame
 * would make the load generator, not the hub, the thing measured. Every other frame (responses,
 * other notifications) and one session/update in {@link FULL_CHECK_EVERY} go through the full
 * schema check (bench/lib/frame-schema.ts), so a shape change still fails loudly.
 */

const UPDATE_METHOD = Buffer.from('"method":"session/update"');
const SEQ_KEY = Buffer.from('"seq":');
const SIM_SENT_AT = Buffer.from('[simSentAt=');
/** The method key sits in the first bytes of every frame the hub or the baseline builds. */
const HEAD_BYTES = 64;
/** One session/update in this many is also parsed in full (shape guard). */
export const FULL_CHECK_EVERY = 997;

/** True when the frame is a `session/update` notification. */
export function isSessionUpdate(frame: Buffer): boolean {
  const at = frame.indexOf(UPDATE_METHOD);
  return at !== -1 && at < HEAD_BYTES;
}

function readNumber(frame: Buffer, from: number): number {
  let end = from;
  while (end < frame.length) {
    const c = frame[end]!;
    // digits, '.', '-'
    if ((c >= 48 && c <= 57) || c === 46 || c === 45) end++;
    else break;
  }
  return end === from ? Number.NaN : Number(frame.toString('latin1', from, end));
}

/** `params._meta.zcode.seq`: the last `"seq":` of the frame (the envelope's meta comes last). */
export function frameSeq(frame: Buffer): number {
  const at = frame.lastIndexOf(SEQ_KEY);
  return at === -1 ? Number.NaN : readNumber(frame, at + SEQ_KEY.length);
}

/** The simulator's (or baseline's) send time stamped into the text, or NaN when absent. */
export function frameSentAt(frame: Buffer): number {
  const at = frame.indexOf(SIM_SENT_AT);
  return at === -1 ? Number.NaN : readNumber(frame, at + SIM_SENT_AT.length);
}
