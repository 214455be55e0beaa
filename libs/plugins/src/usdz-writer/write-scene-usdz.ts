import { HIDDEN_SCALE, type Scene, type SceneMaterial, type SceneMesh, type SceneNode } from '@app/scene';
import { writeStoredZip } from './stored-zip';

/** Time codes per second: GIF delays are in hundredths of a second, so frame switches land exactly. */
export const TIME_CODES_PER_SECOND = 100;

/** Fixed-point with trailing zeros trimmed, never exponent form. */
const f = (n: number) => {
  const s = n.toFixed(6).replace(/\.?0+$/, '');
  return s === '-0' ? '0' : s;
};
const tuple = (v: readonly number[]) => `(${v.map(f).join(', ')})`;
const pad = (text: string, depth: number) =>
  text
    .split('\n')
    .map((l) => (l ? ' '.repeat(depth * 4) + l : l))
    .join('\n');

/** Package path of a texture (Quick Look reads .png and .jpg, not .jpeg). */
export const texturePath = (t: { id: string; mime: string }) => `textures/${t.id}.${t.mime === 'image/png' ? 'png' : 'jpg'}`;

function meshUsda(m: SceneMesh, materialsPath: string): string {
  const pts: number[][] = [];
  for (let i = 0; i < m.positions.length; i += 3) pts.push(m.positions.slice(i, i + 3));
  const nrm: number[][] = [];
  for (let i = 0; i < m.normals.length; i += 3) nrm.push(m.normals.slice(i, i + 3));
  const min = [0, 1, 2].map((a) => Math.min(...pts.map((p) => p[a])));
  const max = [0, 1, 2].map((a) => Math.max(...pts.map((p) => p[a])));
  const lines = [
    `def Mesh "${m.name}" (`,
    '    prepend apiSchemas = ["MaterialBindingAPI"]',
    ')',
    '{',
    `    float3[] extent = [${tuple(min)}, ${tuple(max)}]`,
    `    int[] faceVertexCounts = [${new Array(m.indices.length / 3).fill(3).join(', ')}]`,
    `    int[] faceVertexIndices = [${m.indices.join(', ')}]`,
    `    rel material:binding = <${materialsPath}/${m.material}>`,
    `    normal3f[] normals = [${nrm.map(tuple).join(', ')}] (`,
    '        interpolation = "vertex"',
    '    )',
    `    point3f[] points = [${pts.map(tuple).join(', ')}]`,
  ];
  if (m.uvs) {
    const st: string[] = [];
    // USD's st has t = 0 at the bottom of the image; glTF's v = 0 is the top.
    for (let i = 0; i < m.uvs.length; i += 2) st.push(tuple([m.uvs[i], 1 - m.uvs[i + 1]]));
    lines.push(`    texCoord2f[] primvars:st = [${st.join(', ')}] (`, '        interpolation = "vertex"', '    )');
  }
  lines.push('    uniform token subdivisionScheme = "none"', '}');
  return lines.join('\n');
}

/** Scale samples on integer time codes, with hold keys so USD's linear interpolation switches at once. */
function scaleSamples(keys: { time: number; visible: boolean }[], code: (t: number) => number): string[] {
  const samples = new Map<number, boolean>();
  keys.forEach((k, i) => {
    const c = code(k.time);
    if (i > 0 && c - 1 >= 0) samples.set(c - 1, keys[i - 1].visible);
    samples.set(c, k.visible);
  });
  const off = tuple([HIDDEN_SCALE, HIDDEN_SCALE, HIDDEN_SCALE]);
  return [...samples.entries()].sort((a, b) => a[0] - b[0]).map(([c, v]) => `    ${c}: ${v ? '(1, 1, 1)' : off},`);
}

function nodeUsda(n: SceneNode, materialsPath: string, samples?: string[]): string {
  const ops: string[] = [];
  const body: string[] = [];
  if (samples) {
    body.push('float3 xformOp:scale.timeSamples = {', ...samples, '}');
  } else if (n.scale) {
    body.push(`float3 xformOp:scale = ${tuple(n.scale)}`);
  }
  if (n.translation) {
    body.push(`double3 xformOp:translate = ${tuple(n.translation)}`);
    ops.push('"xformOp:translate"');
  }
  if (samples || n.scale) ops.push('"xformOp:scale"');
  if (ops.length) body.push(`uniform token[] xformOpOrder = [${ops.join(', ')}]`);
  const meshes = n.meshes.map((m) => meshUsda(m, materialsPath));
  return [`def Xform "${n.name}"`, '{', ...body.map((l) => pad(l, 1)), ...(body.length ? [''] : []), pad(meshes.join('\n\n'), 1), '}'].join(
    '\n',
  );
}

function materialUsda(m: SceneMaterial, path: string, textures: Map<string, { path: string; repeat: boolean }>): string {
  const self = `${path}/${m.id}`;
  const tex = m.texture ? textures.get(m.texture) : undefined;
  if (m.texture && !tex) throw new Error(`usdz: material ${m.id} names a missing texture ${m.texture}`);
  const surface: string[] = ['uniform token info:id = "UsdPreviewSurface"'];
  if (m.unlit) {
    // Quick Look has no unlit shading: the colour drives emission over a black diffuse.
    surface.push('color3f inputs:diffuseColor = (0, 0, 0)');
    surface.push(
      tex ? `color3f inputs:emissiveColor.connect = <${self}/Texture.outputs:rgb>` : `color3f inputs:emissiveColor = ${tuple(m.color)}`,
    );
  } else {
    surface.push(
      tex ? `color3f inputs:diffuseColor.connect = <${self}/Texture.outputs:rgb>` : `color3f inputs:diffuseColor = ${tuple(m.color)}`,
    );
  }
  surface.push(`float inputs:metallic = ${f(m.metallic)}`);
  if (tex && m.alpha !== 'opaque') {
    surface.push(`float inputs:opacity.connect = <${self}/Texture.outputs:a>`);
    if (m.alpha === 'mask') surface.push('float inputs:opacityThreshold = 0.5');
  }
  surface.push(`float inputs:roughness = ${f(m.roughness)}`, 'token outputs:surface');
  const shaders = [['def Shader "Surface"', '{', ...surface.map((l) => pad(l, 1)), '}'].join('\n')];
  if (tex) {
    const wrap = tex.repeat ? 'repeat' : 'clamp';
    shaders.push(
      [
        'def Shader "StReader"',
        '{',
        '    uniform token info:id = "UsdPrimvarReader_float2"',
        '    string inputs:varname = "st"',
        '    float2 outputs:result',
        '}',
      ].join('\n'),
      [
        'def Shader "Texture"',
        '{',
        '    uniform token info:id = "UsdUVTexture"',
        `    asset inputs:file = @${tex.path}@`,
        '    token inputs:sourceColorSpace = "sRGB"',
        `    float2 inputs:st.connect = <${self}/StReader.outputs:result>`,
        `    token inputs:wrapS = "${wrap}"`,
        `    token inputs:wrapT = "${wrap}"`,
        '    float outputs:a',
        '    float3 outputs:rgb',
        '}',
      ].join('\n'),
    );
  }
  return [
    `def Material "${m.id}"`,
    '{',
    `    token outputs:surface.connect = <${self}/Surface.outputs:surface>`,
    '',
    pad(shaders.join('\n\n'), 1),
    '}',
  ].join('\n');
}

/**
 * The USDA root layer of a {@link Scene}, in canonical multi-line form: metersPerUnit 1, upAxis Y,
 * defaultPrim, MaterialBindingAPI on bound meshes, UsdPreviewSurface / UsdUVTexture /
 * UsdPrimvarReader_float2 only, st with v up. The root prim carries Quick Look's plane anchoring
 * (Preliminary_AnchoringAPI): vertical for a wall, horizontal for the floor. On a vertical anchor Quick
 * Look lays content out as on a floor, the anchor's +Y being the wall's normal, so the model (authored
 * front +Z, up +Y) is turned -90 degrees about X: its front faces out of the wall, its top points up
 * (docs/ar-output.md). A flipbook becomes `xformOp:scale.timeSamples` per frame.
 */
export function writeSceneUsda(scene: Scene): string {
  if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(scene.name)) throw new Error(`usdz: "${scene.name}" is not a valid prim name`);
  const root = `/${scene.name}`;
  const materialsPath = `${root}/Materials`;
  const textures = new Map(scene.textures.map((t) => [t.id, { path: texturePath(t), repeat: t.repeat === true }]));
  const anim = scene.animation;
  let end = 0;
  const codes = new Map<number, number>();
  if (anim) {
    // One time code per distinct key time, strictly increasing, shared by every track.
    const times = [...new Set(anim.tracks.flatMap((t) => t.keys.map((k) => k.time)))].sort((a, b) => a - b);
    let last = -1;
    for (const t of times) {
      last = Math.max(Math.round(t * TIME_CODES_PER_SECOND), last + 1);
      codes.set(t, last);
    }
    end = last;
  }
  const tracks = new Map(anim?.tracks.map((t) => [t.node, scaleSamples(t.keys, (x) => codes.get(x) as number)]) ?? []);
  const wall = scene.anchoring === 'wall';
  const model = [
    'def Xform "Model"',
    '{',
    ...(wall ? ['    float xformOp:rotateX = -90', '    uniform token[] xformOpOrder = ["xformOp:rotateX"]', ''] : []),
    pad(scene.nodes.map((n) => nodeUsda(n, materialsPath, tracks.get(n.name))).join('\n\n'), 1),
    '}',
  ].join('\n');
  const materials = [
    'def Scope "Materials"',
    '{',
    pad(scene.materials.map((m) => materialUsda(m, materialsPath, textures)).join('\n\n'), 1),
    '}',
  ].join('\n');
  const meta = [
    `    defaultPrim = "${scene.name}"`,
    ...(anim ? [`    endTimeCode = ${end}`] : []),
    '    metersPerUnit = 1',
    ...(anim ? ['    startTimeCode = 0', `    timeCodesPerSecond = ${TIME_CODES_PER_SECOND}`] : []),
    '    upAxis = "Y"',
    '    doc = "Generated by image-ar-service"',
  ];
  return `#usda 1.0
(
${meta.join('\n')}
)

def Xform "${scene.name}" (
    prepend apiSchemas = ["Preliminary_AnchoringAPI"]
    kind = "component"
)
{
    uniform token preliminary:anchoring:type = "plane"
    uniform token preliminary:planeAnchoring:alignment = "${wall ? 'vertical' : 'horizontal'}"

${pad(model, 1)}

${pad(materials, 1)}
}
`;
}

/**
 * Writes a USDZ of a {@link Scene}: the USDA root layer first, then the textures, in a 64-byte-aligned
 * STORED zip (DESIGN §5).
 *
 * @example
 * const usdz = writeSceneUsdz(buildPictureScene(input).scene);
 */
export function writeSceneUsdz(scene: Scene, layerName = 'model.usda'): Buffer {
  const usda = writeSceneUsda(scene);
  return writeStoredZip([
    { name: layerName, data: Buffer.from(usda, 'utf8') },
    ...scene.textures.map((t) => ({ name: texturePath(t), data: t.image })),
  ]);
}
