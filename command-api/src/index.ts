export { type CommandService, createCommandService } from './command-service';
export { type CommandApiDeps, mapDomainError, signedIn } from './http/context';
export { commandApi, type HttpFoundationOptions, registerHttpFoundation } from './http/plugin';
export type { CommandOutcome } from './shifts';
export { streams } from './streams';
