export { Positions } from './consistency';
export { type ReadApiDeps, readModels } from './context';
export type { HistoryEntry } from './history-routes';
export { LiveFeed, LiveHub, type View } from './live';
export { readApi } from './plugin';
