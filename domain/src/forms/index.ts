export * from './forms';
export * from './text';
