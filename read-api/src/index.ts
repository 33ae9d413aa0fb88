export { Positions } from './consistency';
export type { HistoryEntry } from './context';
export { type ReadApiDeps, readModels } from './context';
export { LiveFeed, LiveHub, type LiveLimits, type SessionEnds, type View } from './live';
export { readApi } from './plugin';
export { DEFAULT_PAGE_SIZE } from './shift-paging';
export { shiftsOfferedTo } from './shift-queries';
