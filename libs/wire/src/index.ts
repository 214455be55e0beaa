/**
 * The JSON views of jobs and results that clients receive (v2 job objects, progress, timelines,
 * presentation) and the public URLs they carry: written once, used by the API's answers and by the
 * callbacks the worker sends. Pure functions over rows; no Nest, no I/O.
 */
export * from './public-urls';
export * from './v2-job-view';
