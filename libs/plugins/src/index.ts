import type { Plugin } from '@app/pipeline';
import { animatedArPlugin } from './animated-ar/animated-ar.plugin';
import { callbackPlugin } from './callback';
import { fetchPlugin } from './fetch';
import { hostedMotionPlugin } from './motion/hosted/hosted-motion.plugin';
import { glbWriterPlugin } from './glb-writer/glb-writer.plugin';
import { normalisePlugin } from './normalise';
import { publishPlugin } from './publish/publish.plugin';
import { stillImagePlugin } from './still-image/still-image.plugin';
import { thumbnailsPlugin } from './thumbnails/thumbnails.plugin';
import { usdzWriterPlugin } from './usdz-writer/usdz-writer.plugin';
import { scenePlugin } from './scene-builder/scene.plugin';
import { variantsPlugin } from './variants/variants.plugin';
import { galleryWallPlugin } from './gallery-wall/gallery-wall.plugin';

export * from './services';
export * from './dimensions/dimensions';
export * from './fetch';
export * from './callback';
export * from './normalise';
export * from './glb-writer/write-card-glb';
export * from './glb-writer/glb-writer.stage';
export * from './usdz-writer/stored-zip';
export * from './usdz-writer/write-card-usdz';
export * from './usdz-writer/usdz-writer.stage';
export * from './publish/publish.stage';
export * from './scene-builder/scene.stage';
export * from './scene-builder/picture-model';
export * from './scene-builder/framed-poster';
export * from './glb-writer/write-scene-glb';
export * from './usdz-writer/write-scene-usdz';
export * from './presentation/presentation';
export * from './job-inputs';
export * from './still-image/still-image.plugin';
export * from './thumbnails';
export * from './variants/variant-specs';
export * from './variants/build-variant';
export * from './variants/variants.stage';
export * from './variants/variants.plugin';
export * from './gallery-wall/arrange-wall';
export * from './gallery-wall/wall-model';
export * from './gallery-wall/wall-sources';
export * from './gallery-wall/gallery-wall.stage';
export * from './gallery-wall/gallery-wall.plugin';
export * from './gallery-wall/wall-build-pool';

/** Built-in plugins, registered before any configured third-party plugin. */
export function builtinPlugins(): Plugin<object>[] {
  return [
    fetchPlugin,
    normalisePlugin,
    scenePlugin,
    glbWriterPlugin,
    usdzWriterPlugin,
    publishPlugin,
    stillImagePlugin,
    thumbnailsPlugin,
    variantsPlugin,
    galleryWallPlugin,
    hostedMotionPlugin,
    animatedArPlugin,
    callbackPlugin,
  ];
}
export * from './flipbook';
export * from './frames/frame-sequence';
export * from './frames/decode-animated-image';
export * from './frames/decode-video';
export * from './frames/loop-seam';
export * from './background-removal';
export * from './motion/procedural/render-procedural-motion';
export * from './motion/motion-provider.port';
export * from './motion/procedural/motion-presets';
export * from './motion/procedural/procedural-motion.adapter';
export * from './animated-ar/animated-ar.plugin';
export * from './animated-ar/publish-animated.stage';
export * from './motion/hosted/provider-http';
export * from './motion/hosted/hosted-motion.adapter';
export * from './motion/hosted/hosted-motion.plugin';
export * from './motion/hosted/still-upload';
export * from './motion/hosted/replicate.adapter';
export * from './motion/hosted/runway.adapter';
export * from './motion/hosted/luma.adapter';
export * from './motion/hosted/fal.adapter';
export * from './motion/hosted/veo.adapter';
