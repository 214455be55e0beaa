/** The magic bytes of a binary glTF file. */
export const isGlb = (b: Buffer): boolean => b.length >= 20 && b.toString('latin1', 0, 4) === 'glTF';

type Json = Record<string, any>;

/**
 * The picture's texture inside a GLB we wrote (material `Picture`, else the image named `picture`), as
 * stored: the normalise stage's encoded texture, byte for byte, so it is neither decoded nor re-encoded
 * here. Null when the file holds no such image (not ours, or a flipbook).
 *
 * A showcase item's rebuild (a new size, frame, mat...) starts from it instead of fetching and decoding
 * the source again.
 */
export function glbPictureTexture(glb: Buffer): Buffer | null {
  if (!isGlb(glb) || glb.readUInt32LE(4) !== 2) return null;
  let json: Json | undefined;
  let bin: Buffer | undefined;
  for (let at = 12; at + 8 <= glb.length;) {
    const length = glb.readUInt32LE(at);
    const type = glb.toString('latin1', at + 4, at + 8);
    const body = glb.subarray(at + 8, at + 8 + length);
    if (type === 'JSON' && !json) json = JSON.parse(body.toString('utf8')) as Json;
    else if (type === 'BIN\0' && !bin) bin = body;
    at += 8 + length;
  }
  if (!json || !bin) return null;
  const images: Json[] = json.images ?? [];
  const material = (json.materials ?? []).find((m: Json) => m?.name === 'Picture');
  const texture = material?.pbrMetallicRoughness?.baseColorTexture?.index;
  const source = typeof texture === 'number' ? json.textures?.[texture]?.source : undefined;
  const image = typeof source === 'number' ? images[source] : images.find((i) => i?.name === 'picture');
  const view = typeof image?.bufferView === 'number' ? json.bufferViews?.[image.bufferView] : undefined;
  if (!view || (view.buffer ?? 0) !== 0) return null;
  const start = view.byteOffset ?? 0;
  const end = start + view.byteLength;
  if (!Number.isInteger(start) || !Number.isInteger(end) || end > bin.length) return null;
  return Buffer.from(bin.subarray(start, end));
}
