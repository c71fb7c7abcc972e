import { WEB_LIMITS } from '../limits.js';
import { fitWithin, outputMime } from './downscale-math.js';

/** An image ready for an ACP `image` content block. */
export interface PreparedImage {
  mimeType: string;
  /** Base64 without the `data:` prefix. */
  data: string;
  /** `data:` URL for the preview thumbnail. */
  url: string;
}

/**
 * Draws a picked/pasted/captured image on a canvas no larger than `imageMaxEdgePx` and
 * re-encodes it: phone photos shrink from megabytes to a few hundred KB before they travel.
 */
export async function downscaleImage(file: Blob): Promise<PreparedImage> {
  const bitmap = await createImageBitmap(file);
  try {
    const size = fitWithin(bitmap.width, bitmap.height, WEB_LIMITS.imageMaxEdgePx);
    const canvas = document.createElement('canvas');
    canvas.width = size.width;
    canvas.height = size.height;
    const ctx = canvas.getContext('2d');
    if (!ctx) throw new Error('canvas unavailable');
    ctx.drawImage(bitmap, 0, 0, size.width, size.height);
    const mimeType = outputMime(file.type);
    const url = canvas.toDataURL(mimeType, WEB_LIMITS.imageJpegQuality);
    const comma = url.indexOf(',');
    return { mimeType, data: url.slice(comma + 1), url };
  } finally {
    bitmap.close();
  }
}
