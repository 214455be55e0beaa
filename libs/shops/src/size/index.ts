export * from './parse-size-text';
export * from './parse-print-size';
export * from './match-frame';
