import type {
  CommandContext,
  OperationCommand,
  OperationEvent,
  ScheduleCommand,
  ScheduleEvent,
  ShiftCommand,
  ShiftEvent,
  VersionedEscalationPolicy,
} from '@shiftcover/domain';
import type { CommandTrace, HandleResult } from '@shiftcover/eventstore';

/** What a process manager learns of a command it sent. */
export type Written<Event> = Pick<HandleResult<Event>, 'events' | 'position' | 'duplicate'>;

/**
 * The write side as the process managers use it: shift commands (timers, e-mail tools) and
 * operations recorded once under their id (reports, developer calls), and the notices of a
 * person's schedule (credential expiry); and what the escalation ladder reads from the streams the
 * commands decide on (the policy, who may take a shift). The app passes in the command API's service.
 */
export interface Commands {
  shift(command: ShiftCommand, context: CommandContext, trace: CommandTrace): Promise<Written<ShiftEvent>>;
  operation(
    operationId: string,
    command: OperationCommand,
    context: CommandContext,
    trace: CommandTrace,
  ): Promise<Written<OperationEvent>>;
  safety: {
    schedule(
      command: ScheduleCommand,
      context: CommandContext,
      trace: CommandTrace,
    ): Promise<Written<ScheduleEvent>>;
    eligibility(
      shiftId: string,
      userId: string,
      self: boolean,
      now: Date,
    ): Promise<{ eligible: boolean } | null>;
    eligibleAmong(
      shiftId: string,
      userIds: readonly string[],
      now: Date,
      atOnce?: number,
    ): Promise<string[] | null>;
  };
  escalation: { policy(): Promise<VersionedEscalationPolicy> };
}
