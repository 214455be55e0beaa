/**
 * The stage contract: defined once, in `@image-ar/plugin-sdk` (what plugin authors compile against),
 * re-exported here for the service. Types only: nothing of the package is loaded at run time.
 */
export type { StageCheckpoints, StageContext, StageJob, StageLogger, StageProvider, StageResource } from '@image-ar/plugin-sdk';
