import { Document, NodeIO } from '@gltf-transform/core';
import { KHRMaterialsUnlit } from '@gltf-transform/extensions';
import { CARD_BACK_COLOR, CARD_BACK_OFFSET } from '../glb-writer/write-card-glb';
import { type FlipbookModelInput, frameGap, frameTimes, HIDDEN_SCALE } from './flipbook';

/**
 * Writes a looping flipbook GLB: one quad per frame stacked a fraction of a millimetre apart, textured
 * from a few atlases (one unlit material each), and ONE animation whose STEP scale channels (one per
 * frame, sharing one time input) show exactly one frame at a time. A final key at the loop's end keeps
 * the last frame on screen for its full time. Scene Viewer plays the first animation and loops it.
 *
 * @example
 * const glb = await writeFlipbookGlb({ atlases, frames, alpha: 'opaque', width: 0.6096, height: 0.6096 });
 */
export async function writeFlipbookGlb(input: FlipbookModelInput): Promise<Buffer> {
  const { starts, total } = frameTimes(input.frames);
  const n = input.frames.length;
  const doc = new Document();
  doc.getRoot().getAsset().generator = 'image-ar-service';
  const buffer = doc.createBuffer();
  const unlit = doc.createExtension(KHRMaterialsUnlit).setRequired(false);
  const accessor = (type: 'VEC3' | 'VEC2' | 'SCALAR', array: Float32Array | Uint16Array) =>
    doc.createAccessor().setType(type).setArray(array).setBuffer(buffer);
  const w = input.width / 2;
  const h = input.height;
  const gap = frameGap(n);

  const materials = input.atlases.map((a, i) => {
    const ext = a.mime === 'image/png' ? 'png' : 'jpg';
    const tex = doc.createTexture(`atlas-${i}`).setImage(new Uint8Array(a.image)).setMimeType(a.mime).setURI(`atlas-${i}.${ext}`);
    const m = doc.createMaterial(`frames-${i}`)
      .setBaseColorTexture(tex)
      .setMetallicFactor(0)
      .setRoughnessFactor(1)
      .setAlphaMode(input.alpha === 'blend' ? 'BLEND' : input.alpha === 'mask' ? 'MASK' : 'OPAQUE')
      .setExtension('KHR_materials_unlit', unlit.createUnlit());
    if (input.alpha === 'mask') m.setAlphaCutoff(0.5);
    return m;
  });
  const positions = accessor('VEC3', new Float32Array([-w, 0, 0, w, 0, 0, w, h, 0, -w, h, 0]));
  const normals = accessor('VEC3', new Float32Array([0, 0, 1, 0, 0, 1, 0, 0, 1, 0, 0, 1]));
  const indices = accessor('SCALAR', new Uint16Array([0, 1, 2, 0, 2, 3]));

  const root = doc.createNode('flipbook');
  const back = doc.createMaterial('card-back').setBaseColorFactor([...CARD_BACK_COLOR, 1]).setMetallicFactor(0).setRoughnessFactor(1)
    .setExtension('KHR_materials_unlit', unlit.createUnlit());
  const z = -CARD_BACK_OFFSET;
  root.addChild(doc.createNode('back').setMesh(doc.createMesh('back').addPrimitive(doc.createPrimitive()
    .setAttribute('POSITION', accessor('VEC3', new Float32Array([w, 0, z, -w, 0, z, -w, h, z, w, h, z])))
    .setAttribute('NORMAL', accessor('VEC3', new Float32Array([0, 0, -1, 0, 0, -1, 0, 0, -1, 0, 0, -1])))
    .setIndices(indices).setMaterial(back))));

  // Key times: each frame's start, plus the loop's end.
  const times = accessor('SCALAR', new Float32Array([...starts, total]));
  const animation = doc.createAnimation('flipbook');
  input.frames.forEach((f, i) => {
    const [u0, v0, u1, v1] = f.uv;
    const prim = doc.createPrimitive()
      .setAttribute('POSITION', positions)
      .setAttribute('NORMAL', normals)
      .setAttribute('TEXCOORD_0', accessor('VEC2', new Float32Array([u0, v1, u1, v1, u1, v0, u0, v0])))
      .setIndices(indices)
      .setMaterial(materials[f.atlas]);
    const s = (on: boolean) => (on ? [1, 1, 1] : [HIDDEN_SCALE, HIDDEN_SCALE, HIDDEN_SCALE]);
    const node = doc.createNode(`frame-${i}`).setMesh(doc.createMesh(`frame-${i}`).addPrimitive(prim))
      .setTranslation([0, 0, i * gap]).setScale(s(i === 0) as [number, number, number]);
    root.addChild(node);
    const values = new Float32Array(3 * (n + 1));
    for (let k = 0; k <= n; k++) values.set(s(Math.min(k, n - 1) === i), 3 * k);
    const sampler = doc.createAnimationSampler().setInput(times).setOutput(accessor('VEC3', values)).setInterpolation('STEP');
    animation.addSampler(sampler).addChannel(doc.createAnimationChannel().setTargetNode(node).setTargetPath('scale').setSampler(sampler));
  });
  doc.createScene('scene').addChild(root);
  doc.getRoot().setDefaultScene(doc.getRoot().listScenes()[0]);
  const glb = await new NodeIO().registerExtensions([KHRMaterialsUnlit]).writeBinary(doc);
  return Buffer.from(glb.buffer, glb.byteOffset, glb.byteLength);
}
