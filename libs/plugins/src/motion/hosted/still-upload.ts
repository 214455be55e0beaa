import sharp from 'sharp';
import type { StoragePort } from '@app/storage';
import type { MotionRequest } from '../motion-provider.port';

/** A `data:` URI of some bytes. */
export const dataUri = (bytes: Buffer, mime: string): string => `data:${mime};base64,${bytes.toString('base64')}`;

/**
 * The still as a `data:` URI of at most `maxChars` characters: the encoded picture when it fits, else
 * a JPEG (hosted models do not keep transparency) at falling quality.
 */
export async function stillDataUri(req: MotionRequest, maxChars: number): Promise<string> {
  let out = dataUri(req.image.encoded, req.image.mime);
  for (const quality of [90, 80, 70]) {
    if (out.length <= maxChars) return out;
    const jpeg = await sharp(req.image.rgba, { raw: { width: req.image.width, height: req.image.height, channels: 4 } })
      .flatten({ background: '#ffffff' })
      .jpeg({ quality })
      .toBuffer();
    out = dataUri(jpeg, 'image/jpeg');
  }
  if (out.length <= maxChars) return out;
  throw new Error(`motion: the picture does not fit in ${maxChars} characters as a data URI`);
}

/**
 * Puts the still in our storage for providers that only take a public image URL (Luma). The URL is
 * `storage.url(key)`: PUBLIC_BASE_URL (local storage) or the bucket's public URL must be reachable
 * from the provider.
 */
export async function stillPublicUrl(req: MotionRequest, storage: StoragePort): Promise<string> {
  const ext = req.image.mime === 'image/png' ? 'png' : 'jpg';
  const key = `motion/${req.jobId}/source.${ext}`;
  await storage.put(key, req.image.encoded, req.image.mime);
  return storage.url(key);
}

/** The allowed `W:H` ratio (e.g. Runway's "1280:720") closest to the picture's aspect. */
export function closestRatio(width: number, height: number, allowed: readonly string[]): string {
  const aspect = Math.log(width / height);
  let best = allowed[0];
  let bestDist = Infinity;
  for (const r of allowed) {
    const [w, h] = r.split(':').map(Number);
    const d = Math.abs(Math.log(w / h) - aspect);
    if (d < bestDist) [best, bestDist] = [r, d];
  }
  return best;
}

/** Whole seconds of clip to ask for: the shortest allowed length that covers the loop. */
export function clipSeconds(loopS: number, allowed: readonly number[]): number {
  const sorted = [...allowed].sort((a, b) => a - b);
  return sorted.find((s) => s >= loopS) ?? sorted[sorted.length - 1];
}
