export { type CommandService, type CommandServiceOptions, createCommandService } from './command-service';
export type { CommandApiDeps } from './http/context';
export {
  type ApiDocument,
  commandApi,
  type HttpFoundationOptions,
  registerHttpFoundation,
} from './http/plugin';
export { Principals } from './http/principals';
export { type Eligibility, heldTimes, isExpired, replayUnderRules, Safety } from './safety';
export type { CommandOutcome } from './shifts';
export { streams } from './streams';
