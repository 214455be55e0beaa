// Request schemas: one zod declaration per request validates it, words its 400s and documents it in OpenAPI.
export { z } from 'zod';
export * from './fields';
export * from './openapi';
export * from './parse-input';
