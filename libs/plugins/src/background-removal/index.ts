export * from './background-remover';
export * from './background-remover-pool';
export { resizeIsnetModel, ISNET_SIZE_STEP } from './onnx-model-patch';
export * from './timed-remover';
