export { type CommandService, createCommandService } from './command-service';
export type { CommandOutcome } from './shifts';
export { streams } from './streams';
