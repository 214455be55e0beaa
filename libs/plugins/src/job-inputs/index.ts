// One zod schema per job input, shared by the API that writes them and the worker that parses them once.
export {
  inputOf,
  lookInputShape,
  pictureFieldsShape,
  type PictureFields,
  type PictureSource,
  PresentationInput,
  presentationInputShape,
  sizeInputShape,
  VariantSpecInput,
} from './job-input-fields';
export { PictureJobInput } from './picture-job-input';
export { REBUILD_INPUT, RebuildJobInput } from './rebuild-job-input';
export { VariantsJobInput } from './variants-job-input';
export { WallBuildInput, WallJobInput, WallPictureRef } from './wall-job-input';
export { AnimatedArJobInput } from './animated-ar-job-input';
export { CallbackJobInput } from './callback-job-input';
