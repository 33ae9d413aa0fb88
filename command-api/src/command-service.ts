import {
  type CalendarFeedCommand,
  type CommandContext,
  type ConfigCommand,
  calendarFeedDecider,
  configDecider,
  type InboxCommand,
  inboxDecider,
  type OperationCommand,
  operationDecider,
  type ShiftCommand,
  shiftDecider,
} from '@shiftcover/domain';
import type { CommandHandler, CommandTrace, PersonalDataVault } from '@shiftcover/eventstore';
import { Escalation } from './escalation';
import { Residences } from './residences';
import { Safety } from './safety';
import { Schedules } from './schedules';
import { executeShiftCommand } from './shifts';
import { streams } from './streams';
import { UniqueValues } from './uniqueness';
import { Users } from './users';

export interface CommandServiceOptions {
  /**
   * Shifts with a transfer offered to a person still pending, from the read models: deleting the
   * person ends those offers. Without it, only the shifts on their schedule are let go.
   */
  offeredTo?: (userId: string) => Promise<string[]>;
}

/** The write side's one entry point, shared by the HTTP API, the CLI and the timers. */
export function createCommandService(
  handler: CommandHandler,
  vault: PersonalDataVault,
  options: CommandServiceOptions = {},
) {
  const schedules = new Schedules(handler);
  const unique = new UniqueValues(handler, (kind, ownerId) =>
    kind === 'residence-name' ? residences.exists(ownerId) : users.exists(ownerId),
  );
  const shift = (command: ShiftCommand, context: CommandContext, trace: CommandTrace) =>
    executeShiftCommand(handler, schedules, command, context, trace);
  const users = new Users(handler, unique, vault, {
    shift,
    offeredTo: options.offeredTo ?? (async () => []),
  });
  const residences = new Residences(handler, unique);
  return {
    shift,
    /**
     * The reads of a shift command begun at once (the shift's stream, and the working-time rules
     * for one that gives someone the shift), to hand to `shift` in its trace: see
     * `CommandHandler.readAhead`.
     */
    readAhead: (type: ShiftCommand['type'], shiftId: string) =>
      handler.readAhead([
        { streamId: streams.shift(shiftId), decider: shiftDecider },
        ...schedules.readsAhead(type),
      ]),
    safety: new Safety(handler),
    escalation: new Escalation(handler),
    users,
    residences,
    config: (command: ConfigCommand, context: CommandContext, trace: CommandTrace) =>
      handler.handle(streams.emailNotificationMode(), configDecider, command, context, trace),
    inbox: (command: InboxCommand, context: CommandContext, trace: CommandTrace) =>
      handler.handle(streams.inbox(command.data.userId), inboxDecider, command, context, trace),
    calendarFeed: (command: CalendarFeedCommand, context: CommandContext, trace: CommandTrace) =>
      handler.handle(streams.calendarFeed(command.data.userId), calendarFeedDecider, command, context, trace),
    /** A developer or admin call, or a scheduled report, recorded once under its id. */
    operation: (
      operationId: string,
      command: OperationCommand,
      context: CommandContext,
      trace: CommandTrace,
    ) => handler.handle(streams.operation(operationId), operationDecider, command, context, trace),
  };
}

export type CommandService = ReturnType<typeof createCommandService>;
