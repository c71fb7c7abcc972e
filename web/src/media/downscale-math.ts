/** Pure size math for image attachments (unit-tested): fit inside a box, keep the aspect ratio. */

/** Target size of an image of `width`×`height` whose longest edge must not exceed `maxEdge`. */
export function fitWithin(width: number, height: number, maxEdge: number): { width: number; height: number; scaled: boolean } {
  if (!(width > 0) || !(height > 0)) return { width: 0, height: 0, scaled: false };
  const longest = Math.max(width, height);
  if (longest <= maxEdge) return { width: Math.round(width), height: Math.round(height), scaled: false };
  const f = maxEdge / longest;
  return { width: Math.max(1, Math.round(width * f)), height: Math.max(1, Math.round(height * f)), scaled: true };
}

/** Output type: PNG stays PNG (screenshots, transparency), everything else becomes JPEG. */
export function outputMime(inputMime: string): 'image/png' | 'image/jpeg' {
  return inputMime === 'image/png' ? 'image/png' : 'image/jpeg';
}

/** Bytes a base64 string of length `b64Length` decodes to (to budget the 16 MiB frame). */
export function base64Bytes(b64Length: number, padding = 0): number {
  return Math.floor((b64Length * 3) / 4) - padding;
}
