export { Positions } from './consistency';
export { type ReadApiDeps, readModels } from './context';
export type { HistoryEntry } from './history-routes';
export { LiveFeed, LiveHub, type LiveLimits, type SessionEnds, type View } from './live';
export { readApi } from './plugin';
export { shiftsOfferedTo } from './shift-queries';
