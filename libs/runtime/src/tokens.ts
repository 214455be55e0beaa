export const APP_CONFIG = Symbol('APP_CONFIG');
export const JOB_QUEUE = Symbol('JOB_QUEUE');
export const PIPELINE_REGISTRY = Symbol('PIPELINE_REGISTRY');
export const PIPELINE_CONTAINER = Symbol('PIPELINE_CONTAINER');
export const STORAGE = Symbol('STORAGE');
export const PRICING_POLICY = Symbol('PRICING_POLICY');
