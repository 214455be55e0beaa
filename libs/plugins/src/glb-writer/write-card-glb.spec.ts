import sharp from 'sharp';
import { readGlb, validateGlb, quadrantPicture } from '@app/testing';
import { writeCardGlb } from './write-card-glb';

describe('writeCardGlb', () => {
  it('writes a card the Khronos validator accepts with 0 errors: unlit, sRGB texture, back face, metres', async () => {
    const { png } = await quadrantPicture(64, 32);
    const jpg = await sharp(png).jpeg().toBuffer();
    const glb = await writeCardGlb({ texture: jpg, mime: 'image/jpeg', alpha: 'opaque', width: 1.2, height: 0.6 });
    const report = await validateGlb(glb);
    expect(report.messages.filter((m: any) => m.severity === 0)).toEqual([]);
    expect(report.numErrors).toBe(0);

    const doc = await readGlb(glb);
    const root = doc.getRoot();
    expect(root.listExtensionsUsed().map((e) => e.extensionName)).toContain('KHR_materials_unlit');
    const [front, back] = root.listMeshes()[0].listPrimitives();
    const mat = front.getMaterial()!;
    expect(mat.getExtension('KHR_materials_unlit')).not.toBeNull();
    expect(mat.getAlphaMode()).toBe('OPAQUE');
    // glTF base colour textures are sRGB by definition; the texture is the picture, byte for byte.
    expect(Buffer.from(mat.getBaseColorTexture()!.getImage()!).equals(jpg)).toBe(true);
    expect(mat.getBaseColorTexture()!.getMimeType()).toBe('image/jpeg');
    expect(root.listTextures()).toHaveLength(1);
    expect(root.listMaterials().length).toBeLessThanOrEqual(10);
    // Front faces +Z, the back faces -Z on z = 0 (the wall), the picture centred on it.
    expect(front.getAttribute('NORMAL')!.getElement(0, [])).toEqual([0, 0, 1]);
    expect(back.getAttribute('NORMAL')!.getElement(0, [])).toEqual([0, 0, -1]);
    expect(back.getAttribute('POSITION')!.getElement(0, [])[2]).toBe(0);
    expect(front.getAttribute('POSITION')!.getElement(0, [])[2]).toBeGreaterThan(0);
    const [min, max] = [front.getAttribute('POSITION')!.getMin([]), front.getAttribute('POSITION')!.getMax([])];
    expect(max[0] - min[0]).toBeCloseTo(1.2, 5);
    expect(max[1] - min[1]).toBeCloseTo(0.6, 5);
    expect(min[1]).toBeCloseTo(-0.3, 6);
    // One UV set only (Scene Viewer budget).
    expect(front.listSemantics().filter((s) => s.startsWith('TEXCOORD'))).toEqual(['TEXCOORD_0']);
  });

  it.each([
    ['mask', 'MASK'],
    ['blend', 'BLEND'],
  ] as const)('uses alpha mode %s -> %s for transparent pictures', async (alpha, mode) => {
    const { png } = await quadrantPicture(32, 32, true);
    const glb = await writeCardGlb({ texture: png, mime: 'image/png', alpha, width: 0.5, height: 0.5 });
    expect((await validateGlb(glb)).numErrors).toBe(0);
    const mat = (await readGlb(glb)).getRoot().listMaterials()[0];
    expect(mat.getAlphaMode()).toBe(mode);
  });

  it('adds no more than the texture plus a small fixed overhead', async () => {
    const { png } = await quadrantPicture(256, 256);
    const glb = await writeCardGlb({ texture: png, mime: 'image/png', alpha: 'opaque', width: 1, height: 1 });
    expect(glb.length - png.length).toBeLessThan(4 * 1024);
  });
});
