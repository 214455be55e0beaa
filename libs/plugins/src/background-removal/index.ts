export * from './background-remover';
export { resizeIsnetModel, ISNET_SIZE_STEP } from './onnx-model-patch';
