export { Positions } from './consistency';
export { type ReadApiDeps, readModels } from './context';
export { LiveFeed, LiveHub, type View } from './live';
export { readApi } from './plugin';
