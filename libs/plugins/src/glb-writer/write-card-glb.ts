import { Document, NodeIO } from '@gltf-transform/core';
import { KHRMaterialsUnlit } from '@gltf-transform/extensions';

export interface CardModelInput {
  texture: Buffer;
  mime: 'image/jpeg' | 'image/png';
  alpha: 'opaque' | 'mask' | 'blend';
  /** Plane size in metres. */
  width: number;
  height: number;
  name?: string;
}

/** Gap between the picture and the back of the card, in metres. */
export const CARD_BACK_OFFSET = 0.001;
/** Colour of the card's back (linear RGB). */
export const CARD_BACK_COLOR: [number, number, number] = [0.8, 0.8, 0.8];

/**
 * Writes a GLB picture card: a quad of the given size in metres standing on y = 0, facing +Z, with an
 * unlit sRGB base-colour texture (KHR_materials_unlit) and a plain back quad facing -Z.
 *
 * @example
 * const glb = await writeCardGlb({ texture, mime: 'image/jpeg', alpha: 'opaque', width: 0.6096, height: 0.6096 });
 */
export async function writeCardGlb(input: CardModelInput): Promise<Buffer> {
  const doc = new Document();
  doc.getRoot().getAsset().generator = 'image-ar-service';
  const buffer = doc.createBuffer();
  const unlit = doc.createExtension(KHRMaterialsUnlit).setRequired(false);
  const w = input.width / 2;
  const h = input.height;
  const z = -CARD_BACK_OFFSET;

  const texture = doc.createTexture('picture').setImage(new Uint8Array(input.texture)).setMimeType(input.mime).setURI(input.mime === 'image/png' ? 'picture.png' : 'picture.jpg');
  const front = doc
    .createMaterial('picture')
    .setBaseColorTexture(texture)
    .setBaseColorFactor([1, 1, 1, 1])
    .setMetallicFactor(0)
    .setRoughnessFactor(1)
    .setAlphaMode(input.alpha === 'blend' ? 'BLEND' : input.alpha === 'mask' ? 'MASK' : 'OPAQUE')
    .setExtension('KHR_materials_unlit', unlit.createUnlit());
  if (input.alpha === 'mask') front.setAlphaCutoff(0.5);
  const back = doc
    .createMaterial('card-back')
    .setBaseColorFactor([...CARD_BACK_COLOR, 1])
    .setMetallicFactor(0)
    .setRoughnessFactor(1)
    .setExtension('KHR_materials_unlit', unlit.createUnlit());

  const accessor = (type: 'VEC3' | 'VEC2' | 'SCALAR', array: Float32Array | Uint16Array) =>
    doc.createAccessor().setType(type).setArray(array).setBuffer(buffer);

  // glTF UV origin is the top-left of the image.
  const frontPrim = doc
    .createPrimitive()
    .setAttribute('POSITION', accessor('VEC3', new Float32Array([-w, 0, 0, w, 0, 0, w, h, 0, -w, h, 0])))
    .setAttribute('NORMAL', accessor('VEC3', new Float32Array([0, 0, 1, 0, 0, 1, 0, 0, 1, 0, 0, 1])))
    .setAttribute('TEXCOORD_0', accessor('VEC2', new Float32Array([0, 1, 1, 1, 1, 0, 0, 0])))
    .setIndices(accessor('SCALAR', new Uint16Array([0, 1, 2, 0, 2, 3])))
    .setMaterial(front);
  const backPrim = doc
    .createPrimitive()
    .setAttribute('POSITION', accessor('VEC3', new Float32Array([w, 0, z, -w, 0, z, -w, h, z, w, h, z])))
    .setAttribute('NORMAL', accessor('VEC3', new Float32Array([0, 0, -1, 0, 0, -1, 0, 0, -1, 0, 0, -1])))
    .setIndices(accessor('SCALAR', new Uint16Array([0, 1, 2, 0, 2, 3])))
    .setMaterial(back);
  const mesh = doc.createMesh('card').addPrimitive(frontPrim).addPrimitive(backPrim);
  const node = doc.createNode(input.name ?? 'card').setMesh(mesh);
  doc.createScene('scene').addChild(node);
  doc.getRoot().setDefaultScene(doc.getRoot().listScenes()[0]);

  const glb = await new NodeIO().registerExtensions([KHRMaterialsUnlit]).writeBinary(doc);
  return Buffer.from(glb.buffer, glb.byteOffset, glb.byteLength);
}
