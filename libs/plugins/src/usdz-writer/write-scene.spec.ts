import sharp from 'sharp';
import { buildPictureScene, type FrameStyle, hexToLinear, type PictureSceneInput, sceneBounds } from '@app/scene';
import { glbBounds, readGlb, readUsdz, tinyusdzParse, validateGlb } from '@app/testing';
import { writeSceneGlb } from '../glb-writer/write-scene-glb';
import { writeSceneUsda, writeSceneUsdz } from './write-scene-usdz';

const IN = 0.0254;

async function still(): Promise<PictureSceneInput['layer']> {
  const image = await sharp({ create: { width: 64, height: 96, channels: 3, background: '#3366aa' } })
    .jpeg()
    .toBuffer();
  return { kind: 'still', texture: { id: 'picture', image, mime: 'image/jpeg' }, alpha: 'opaque' };
}

function input(layer: PictureSceneInput['layer'], style: FrameStyle, placement: 'wall' | 'floor' = 'wall', mat = 2): PictureSceneInput {
  const frameWidth = { none: 0, canvas: 0, thin: 0.5, classic: 1.5, float: 0.75 }[style] * IN;
  return {
    picture: { width: 24 * IN, height: 36 * IN },
    layer,
    placement,
    finish: 'matte',
    frame: {
      style,
      width: frameWidth,
      depth: (style === 'none' ? 0.04 : 1.25) * IN,
      color: hexToLinear('#5a3a28'),
      edge: style === 'canvas' ? 'mirror' : undefined,
    },
    mat: style === 'none' || style === 'canvas' ? null : { width: mat * IN, color: hexToLinear('#f3f1ec') },
  };
}

describe('picture scene -> GLB + USDZ', () => {
  it.each(['none', 'thin', 'classic', 'float', 'canvas'] as FrameStyle[])(
    '%s: outer size exact in both files, GLB valid, USDZ parses',
    async (style) => {
      const built = buildPictureScene(input(await still(), style));
      const border = style === 'none' || style === 'canvas' ? 0 : 2 * ({ thin: 0.5, classic: 1.5, float: 0.75 }[style] + 2);
      expect(built.outer.width / IN).toBeCloseTo(24 + border, 6);
      expect(built.outer.height / IN).toBeCloseTo(36 + border, 6);

      const glb = await writeSceneGlb(built.scene);
      const report = await validateGlb(glb);
      expect(report.messages.filter((m: any) => m.severity === 0)).toEqual([]);
      const doc = await readGlb(glb);
      expect(doc.getRoot().listMaterials().length).toBeLessThanOrEqual(10);
      const { min, max } = glbBounds(doc);
      expect((max[0] - min[0]) / IN).toBeCloseTo(built.outer.width / IN, 2);
      expect((max[1] - min[1]) / IN).toBeCloseTo(built.outer.height / IN, 2);
      expect(min[2]).toBeCloseTo(0, 6); // the back against the wall (-Z)
      expect((max[2] - min[2]) / IN).toBeCloseTo(built.outer.depth / IN, 2);

      const usdz = writeSceneUsdz(built.scene);
      const { usda } = await readUsdz(usdz);
      expect(usda).toContain('prepend apiSchemas = ["Preliminary_AnchoringAPI"]');
      expect(usda).toContain('uniform token preliminary:anchoring:type = "plane"');
      expect(usda).toContain('uniform token preliminary:planeAnchoring:alignment = "vertical"');
      expect(usda).toContain('float xformOp:rotateX = -90');
      const parsed = tinyusdzParse(usdz);
      expect(parsed.error).toBe('');
      expect(parsed.ok).toBe(true);
    },
  );

  it('floor placement stands on y = 0 with horizontal anchoring and no rotation', async () => {
    const built = buildPictureScene(input(await still(), 'thin', 'floor'));
    const b = sceneBounds(built.scene);
    expect(b.min[1]).toBeCloseTo(0, 9);
    expect(b.max[1]).toBeCloseTo(built.outer.height, 9);
    const usda = writeSceneUsda(built.scene);
    expect(usda).toContain('alignment = "horizontal"');
    expect(usda).not.toContain('rotateX');
  });

  it('animates a flipbook inside a frame, the frame still', async () => {
    const atlas = await sharp({ create: { width: 128, height: 64, channels: 3, background: '#aa3333' } })
      .jpeg()
      .toBuffer();
    const layer: PictureSceneInput['layer'] = {
      kind: 'flipbook',
      atlases: [{ id: 'atlas-0', image: atlas, mime: 'image/jpeg' }],
      frames: [0, 1, 2, 3].map((i) => ({
        atlas: 0,
        uv: [(i % 2) * 0.5, Math.floor(i / 2) * 0.5, (i % 2) * 0.5 + 0.5, Math.floor(i / 2) * 0.5 + 0.5] as [
          number,
          number,
          number,
          number,
        ],
        duration: 0.25,
      })),
      alpha: 'opaque',
    };
    const built = buildPictureScene(input(layer, 'classic'));
    const glb = await writeSceneGlb(built.scene);
    expect((await validateGlb(glb)).numErrors).toBe(0);
    const doc = await readGlb(glb);
    const anim = doc.getRoot().listAnimations();
    expect(anim).toHaveLength(1);
    expect(anim[0].listChannels().map((c) => c.getTargetNode()!.getName())).toEqual([
      'Frame_0000',
      'Frame_0001',
      'Frame_0002',
      'Frame_0003',
    ]);
    const usda = writeSceneUsda(built.scene);
    expect(usda).toContain('timeCodesPerSecond = 100');
    expect(usda).toContain('endTimeCode = 100');
    expect(usda.match(/xformOp:scale.timeSamples/g)).toHaveLength(4);
    // The frame (Body) has no time samples: it stays still while the picture plays.
    expect(/def Xform "Body"\s*\{[^]*?timeSamples/.test(usda.split('def Xform "Frame_0000"')[0])).toBe(false);
    expect(tinyusdzParse(writeSceneUsdz(built.scene)).ok).toBe(true);
  });
});
