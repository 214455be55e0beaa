import { crc32 } from 'node:zlib';
import { readUsdz, tinyusdzParse, usdaMesh, zipLocalEntries, quadrantPicture } from '@app/testing';
import { writeSceneUsda } from './write-scene-usdz';
import { writeStoredZip } from './stored-zip';
import { writeCardUsdz } from './write-card-usdz';

describe('writeStoredZip', () => {
  it('stores every entry uncompressed, unencrypted, without data descriptors, sizes in local headers, data 64-byte aligned', () => {
    const entries = [
      { name: 'a.usda', data: Buffer.from('#usda 1.0\n') },
      { name: 'textures/x.png', data: Buffer.alloc(1001, 7) },
      { name: 'b', data: Buffer.alloc(3, 1) },
      { name: 'textures/longer-name.jpg', data: Buffer.alloc(64, 2) },
    ];
    const zip = writeStoredZip(entries);
    const local = zipLocalEntries(zip);
    expect(local.map((e) => e.name)).toEqual(entries.map((e) => e.name));
    local.forEach((e, i) => {
      expect(e.dataOffset % 64).toBe(0);
      expect(e.method).toBe(0);
      expect(e.flags & 0x1).toBe(0); // not encrypted
      expect(e.flags & 0x8).toBe(0); // no data descriptor
      expect(e.size).toBe(entries[i].data.length);
      expect(e.compressedSize).toBe(entries[i].data.length);
      expect(e.crc).toBe(crc32(entries[i].data) >>> 0);
      expect(zip.subarray(e.dataOffset, e.dataOffset + e.size).equals(entries[i].data)).toBe(true);
    });
    // End of central directory: count and offsets agree with what we walked.
    const eocd = zip.length - 22;
    expect(zip.readUInt32LE(eocd)).toBe(0x06054b50);
    expect(zip.readUInt16LE(eocd + 10)).toBe(entries.length);
    const cdOffset = zip.readUInt32LE(eocd + 16);
    expect(zip.readUInt32LE(cdOffset)).toBe(0x02014b50);
    for (let i = 0, p = cdOffset; i < entries.length; i++) {
      expect(zip.readUInt32LE(p + 42)).toBe(local[i].localHeaderOffset);
      p += 46 + zip.readUInt16LE(p + 28) + zip.readUInt16LE(p + 30) + zip.readUInt16LE(p + 32);
    }
  });
});

describe('writeCardUsdz', () => {
  it.each([
    ['jpg', 'opaque'],
    ['png', 'blend'],
    ['png', 'mask'],
  ] as const)('writes a valid package (%s, %s)', async (ext, alpha) => {
    const { png } = await quadrantPicture(64, 32, alpha !== 'opaque');
    const usdz = writeCardUsdz({ texture: png, mime: ext === 'png' ? 'image/png' : 'image/jpeg', alpha, width: 0.9, height: 0.45 });

    const entries = zipLocalEntries(usdz);
    expect(entries[0].name).toBe('card.usda');
    expect(entries.map((e) => e.name)).toEqual(['card.usda', `textures/picture.${ext}`]);
    expect(entries.every((e) => e.dataOffset % 64 === 0 && e.method === 0)).toBe(true);

    const { files, usda } = await readUsdz(usdz);
    expect(files.get(`textures/picture.${ext}`)!.equals(png)).toBe(true);
    expect(usda.startsWith('#usda 1.0\n')).toBe(true);
    expect(usda).toContain('defaultPrim = "Card"');
    expect(usda).toContain('metersPerUnit = 1');
    expect(usda).toContain('upAxis = "Y"');
    expect(usda.match(/prepend apiSchemas = \["MaterialBindingAPI"\]/g)).toHaveLength(2);
    const shaderIds = [...usda.matchAll(/info:id = "([^"]+)"/g)].map((m) => m[1]);
    expect(new Set(shaderIds)).toEqual(new Set(['UsdPreviewSurface', 'UsdUVTexture', 'UsdPrimvarReader_float2']));
    expect([...usda.matchAll(/@([^@]+)@/g)].map((m) => m[1])).toEqual([`textures/picture.${ext}`]);
    expect(usda).not.toMatch(/\.jpeg/);
    expect(usda.includes('inputs:opacity.connect')).toBe(alpha !== 'opaque');
    expect(usda.includes('opacityThreshold')).toBe(alpha === 'mask');
    const front = usdaMesh(usda, 'Front');
    const back = usdaMesh(usda, 'Back');
    expect(front.points).toHaveLength(4);
    expect(back.points.every((p) => p[2] === 0)).toBe(true);
    expect(front.points.every((p) => p[2] > 0)).toBe(true);

    const parsed = tinyusdzParse(usdz);
    expect(parsed.ok).toBe(true);
    expect(parsed.meshes.map((m) => m.name).sort()).toEqual(['Back', 'Front']);
    expect(parsed.root).toEqual({ name: 'Card', children: expect.arrayContaining(['Model', 'Materials']) });
    // tinyusdz lists the texture once per use (colour, opacity): every use names our file.
    expect(new Set(parsed.images.map((i) => i.uri))).toEqual(new Set([`textures/picture.${ext}`]));
    const frontMesh = parsed.meshes.find((m) => m.name === 'Front')!;
    expect(parsed.materials[frontMesh.materialId].emissiveColorTextureId).toBe(0);
    const xs = frontMesh.points.filter((_, i) => i % 3 === 0);
    expect(Math.max(...xs) - Math.min(...xs)).toBeCloseTo(0.9, 5);
  });

  it('refuses a root name that is no valid prim name', () => {
    expect(() => writeSceneUsda({ name: 'my card', anchoring: 'wall', textures: [], materials: [], nodes: [] })).toThrow(
      'not a valid prim name',
    );
  });

  it('adds no more than the texture plus a small fixed overhead', async () => {
    const { png } = await quadrantPicture(256, 256);
    const usdz = writeCardUsdz({ texture: png, mime: 'image/png', alpha: 'opaque', width: 1, height: 1 });
    expect(usdz.length - png.length).toBeLessThan(8 * 1024);
  });
});
