export { Positions } from './consistency';
export type { HistoryEntry } from './context';
export { type ReadApiDeps, readModels } from './context';
export { LiveFeed, LiveHub, type LiveLimits, type SessionEnds, type View } from './live';
export { readApi } from './plugin';
export { shiftsOfferedTo } from './shift-queries';
