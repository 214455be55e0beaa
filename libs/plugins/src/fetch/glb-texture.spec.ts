import sharp from 'sharp';
import { LocalStorageAdapter } from '@app/storage';
import { quadrantPicture, tempDir } from '@app/testing';
import { parseDimensionRequest, resolveDimensions } from '../dimensions/dimensions';
import { writeSceneGlb } from '../glb-writer/write-scene-glb';
import { fitOption } from '../normalise/normalise.stage';
import { normaliseImage } from '../normalise/normalise-image';
import { pictureModel } from '../scene-builder/scene.stage';
import { glbPictureTexture } from './glb-texture';
import { readUpload } from './read-upload';

const LIMITS = { maxTexturePx: 2048, maxInputPixels: 100_000_000 };

/** What the still-image steps make of `source` with the job input `input`: the normalised picture and its GLB. */
async function convert(source: Buffer, input: Record<string, unknown>) {
  const img = await normaliseImage(source, { ...LIMITS, fit: fitOption(input) });
  const dimensions = resolveDimensions(parseDimensionRequest(input), img.sourceWidth, img.sourceHeight);
  const model = await pictureModel(
    'scene',
    input,
    dimensions,
    {
      kind: 'still',
      texture: { id: 'picture', image: img.texture, mime: img.mime, width: img.width, height: img.height },
      alpha: img.alpha,
    },
    img.poster,
  );
  return { img, glb: await writeSceneGlb(model.scene) };
}

describe('the picture texture of a stored GLB (what a showcase item is rebuilt from)', () => {
  it('is the normalised texture byte for byte, also beside a wood-grain frame and a mat', async () => {
    const { png } = await quadrantPicture(600, 400);
    const { img, glb } = await convert(png, { frame: { style: 'classic', color: 'oak' }, mat: { width_inches: 2 } });
    const texture = glbPictureTexture(glb);
    expect(texture).not.toBeNull();
    expect(texture!.equals(img.texture)).toBe(true);
  });

  it('keeps a 2048 px texture at 2048 px when it is converted again (no second shrink), and crops from it when the size asks', async () => {
    // A picture over the viewers' limit: the first conversion scales it to 2048 px on the longer side.
    const big = await sharp({ create: { width: 3000, height: 2000, channels: 3, background: '#3a6ea5' } })
      .jpeg()
      .toBuffer();
    const first = await convert(big, {});
    expect([first.img.width, first.img.height]).toEqual([2048, 1365]);
    const again = await convert(glbPictureTexture(first.glb)!, { width_inches: 30, height_inches: 20, fit: 'crop', frame: 'thin' });
    expect([again.img.width, again.img.height]).toEqual([2048, 1365]);
    expect(again.img.fit).toMatchObject({ applied: 'none' });
    const square = await convert(glbPictureTexture(first.glb)!, { width_inches: 20, height_inches: 20, fit: 'crop' });
    expect([square.img.width, square.img.height]).toEqual([1365, 1365]);
  });

  it('is null for what is not one of our GLBs', async () => {
    expect(glbPictureTexture(Buffer.from('not a model at all, just text'))).toBeNull();
    const { png } = await quadrantPicture(8, 8);
    expect(glbPictureTexture(png)).toBeNull();
  });

  it('is what readUpload gives for a stored model (models/…), and a plain upload is read as before', async () => {
    const storage = new LocalStorageAdapter(tempDir('glb-texture-'), 'http://localhost/files');
    const { png } = await quadrantPicture(300, 200);
    const { img, glb } = await convert(png, { frame: 'canvas' });
    await storage.put('models/v2_test/model.glb', glb, 'model/gltf-binary');
    const fromModel = await readUpload(storage, 'models/v2_test/model.glb', 25_000_000);
    expect(fromModel.type.mime).toBe('image/jpeg');
    expect(fromModel.bytes.equals(img.texture)).toBe(true);

    await storage.put('uploads/shw_x/upl_1', png, 'image/png');
    expect((await readUpload(storage, 'uploads/shw_x/upl_1', 25_000_000)).bytes.equals(png)).toBe(true);
    // A GLB is a source only where we stored models.
    await storage.put('uploads/shw_x/upl_2', glb, 'application/octet-stream');
    await expect(readUpload(storage, 'uploads/shw_x/upl_2', 25_000_000)).rejects.toMatchObject({ code: 'unsupported_type' });
    await expect(readUpload(storage, 'models/v2_gone/model.glb', 25_000_000)).rejects.toMatchObject({ code: 'upload_missing' });
  });
});
