export * from './background-remover';
export * from './background-remover-pool';
export { resizeIsnetModel, ISNET_SIZE_STEP } from './onnx-model-patch';
export * from './timed-remover';
export * from './cut-out-sequence';
export * from './mask-propagation';
