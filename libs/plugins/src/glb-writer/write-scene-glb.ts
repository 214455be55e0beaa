import { Document, NodeIO, type Material, type Texture, TextureInfo } from '@gltf-transform/core';
import { KHRMaterialsUnlit } from '@gltf-transform/extensions';
import { HIDDEN_SCALE, type Scene } from '@app/scene';

/**
 * Serialises a {@link Scene} as binary glTF: one node per scene node under a root node, one mesh with
 * a primitive per scene mesh, PBR or unlit (KHR_materials_unlit) materials, and the flipbook as ONE
 * animation of STEP scale channels (Scene Viewer plays the first animation and loops it). Picture
 * textures clamp at their edges; material textures (wood grain) repeat.
 *
 * @example
 * const glb = await writeSceneGlb(buildPictureScene(input).scene);
 */
export async function writeSceneGlb(scene: Scene): Promise<Buffer> {
  const doc = new Document();
  doc.getRoot().getAsset().generator = 'image-ar-service';
  const buffer = doc.createBuffer();
  const unlit = doc.createExtension(KHRMaterialsUnlit).setRequired(false);
  const accessor = (
    type: 'VEC3' | 'VEC2' | 'SCALAR',
    array: Float32Array<ArrayBuffer> | Uint16Array<ArrayBuffer> | Uint32Array<ArrayBuffer>,
  ) => doc.createAccessor().setType(type).setArray(array).setBuffer(buffer);

  const textures = new Map<string, Texture>();
  for (const t of scene.textures) {
    const ext = t.mime === 'image/png' ? 'png' : 'jpg';
    textures.set(t.id, doc.createTexture(t.id).setImage(new Uint8Array(t.image)).setMimeType(t.mime).setURI(`${t.id}.${ext}`));
  }
  const repeats = new Map(scene.textures.map((t) => [t.id, t.repeat === true]));
  const materials = new Map<string, Material>();
  for (const m of scene.materials) {
    const mat = doc
      .createMaterial(m.id)
      .setBaseColorFactor([...m.color, 1])
      .setMetallicFactor(m.metallic)
      .setRoughnessFactor(m.roughness)
      .setAlphaMode(m.alpha === 'blend' ? 'BLEND' : m.alpha === 'mask' ? 'MASK' : 'OPAQUE');
    if (m.alpha === 'mask') mat.setAlphaCutoff(0.5);
    if (m.unlit) mat.setExtension('KHR_materials_unlit', unlit.createUnlit());
    if (m.texture) {
      mat.setBaseColorTexture(textures.get(m.texture) ?? null);
      // Pictures must not bleed their opposite edge in at the border; grain tiles.
      const wrap = repeats.get(m.texture) ? TextureInfo.WrapMode.REPEAT : TextureInfo.WrapMode.CLAMP_TO_EDGE;
      mat.getBaseColorTextureInfo()?.setWrapS(wrap).setWrapT(wrap);
    }
    materials.set(m.id, mat);
  }

  const root = doc.createNode(scene.name);
  const nodes = new Map<string, ReturnType<typeof doc.createNode>>();
  for (const n of scene.nodes) {
    const mesh = doc.createMesh(n.name);
    for (const m of n.meshes) {
      const prim = doc
        .createPrimitive()
        .setAttribute('POSITION', accessor('VEC3', new Float32Array(m.positions)))
        .setAttribute('NORMAL', accessor('VEC3', new Float32Array(m.normals)))
        .setIndices(accessor('SCALAR', m.positions.length / 3 > 65535 ? new Uint32Array(m.indices) : new Uint16Array(m.indices)))
        .setMaterial(materials.get(m.material) ?? null);
      if (m.uvs) prim.setAttribute('TEXCOORD_0', accessor('VEC2', new Float32Array(m.uvs)));
      mesh.addPrimitive(prim);
    }
    const node = doc.createNode(n.name).setMesh(mesh);
    if (n.translation) node.setTranslation(n.translation);
    if (n.scale) node.setScale(n.scale);
    root.addChild(node);
    nodes.set(n.name, node);
  }

  if (scene.animation) {
    const anim = doc.createAnimation(scene.animation.name);
    const inputs = new Map<string, ReturnType<typeof accessor>>();
    const on = [1, 1, 1];
    const off = [HIDDEN_SCALE, HIDDEN_SCALE, HIDDEN_SCALE];
    for (const track of scene.animation.tracks) {
      const times = track.keys.map((k) => k.time);
      const key = times.join(',');
      if (!inputs.has(key)) inputs.set(key, accessor('SCALAR', new Float32Array(times)));
      const values = new Float32Array(track.keys.flatMap((k) => (k.visible ? on : off)));
      const sampler = doc.createAnimationSampler().setInput(inputs.get(key)!).setOutput(accessor('VEC3', values)).setInterpolation('STEP');
      anim
        .addSampler(sampler)
        .addChannel(doc.createAnimationChannel().setTargetNode(nodes.get(track.node)!).setTargetPath('scale').setSampler(sampler));
    }
  }

  doc.createScene('scene').addChild(root);
  doc.getRoot().setDefaultScene(doc.getRoot().listScenes()[0]);
  const glb = await new NodeIO().registerExtensions([KHRMaterialsUnlit]).writeBinary(doc);
  return Buffer.from(glb.buffer, glb.byteOffset, glb.byteLength);
}
