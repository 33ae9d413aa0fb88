import {
  type CommandContext,
  DomainError,
  type RegisterUserData,
  type ShiftCommand,
  scheduleDecider,
  type UpdateUserData,
  type UserCommand,
  type UserEvent,
  uniqueKey,
  userDecider,
} from '@shiftcover/domain';
import type { CommandHandler, CommandTrace, PersonalDataVault } from '@shiftcover/eventstore';
import type { CommandOutcome, ShiftOutcome } from './shifts';
import { streams } from './streams';
import type { UniqueValue, UniqueValues } from './uniqueness';

function uniqueValuesOf(personal: { username: string; email?: string | null }): UniqueValue[] {
  const values: UniqueValue[] = [{ kind: 'username', value: personal.username }];
  if (personal.email) values.push({ kind: 'email', value: personal.email });
  return values;
}

/** What deleting a person does to the shifts they are part of. */
export interface ShiftsOfPeople {
  shift(command: ShiftCommand, context: CommandContext, trace: CommandTrace): Promise<ShiftOutcome>;
  /** Shifts with a transfer offered to the person still pending (their schedule knows the rest). */
  offeredTo(userId: string): Promise<string[]>;
}

/** User commands: the user's stream, plus username and e-mail reservations and erasure. */
export class Users {
  constructor(
    private readonly handler: CommandHandler,
    private readonly unique: UniqueValues,
    private readonly vault: PersonalDataVault,
    private readonly shifts: ShiftsOfPeople,
  ) {}

  async register(
    data: RegisterUserData,
    context: CommandContext,
    trace: CommandTrace,
  ): Promise<CommandOutcome<UserEvent>> {
    const command: UserCommand = { type: 'RegisterUser', data };
    await this.allowedAsItStands(command, context, trace);
    return this.unique.within(uniqueValuesOf(data.personal), data.userId, context, trace, () =>
      this.handle(command, context, trace),
    );
  }

  async update(
    data: UpdateUserData,
    context: CommandContext,
    trace: CommandTrace,
  ): Promise<CommandOutcome<UserEvent>> {
    const command: UserCommand = { type: 'UpdateUser', data };
    const before = (await this.allowedAsItStands(command, context, trace)).personal;
    const wanted = uniqueValuesOf(data.personal);
    const outcome = await this.unique.within(wanted, data.userId, context, trace, () =>
      this.handle(command, context, trace),
    );
    for (const old of before ? uniqueValuesOf(before) : []) {
      const kept = wanted.some(
        (w) => w.kind === old.kind && uniqueKey(w.kind, w.value) === uniqueKey(old.kind, old.value),
      );
      if (!kept) await this.unique.release(old, data.userId, context, trace);
    }
    return outcome;
  }

  /**
   * Deletes the account, lets go of the shifts the person had not started yet (what they held or
   * claimed reopens, transfers to and from them end), frees their username and e-mail, then
   * erases their personal data: the copies kept outside the events are scrubbed and the keys
   * destroyed.
   */
  async delete(
    userId: string,
    context: CommandContext,
    trace: CommandTrace,
  ): Promise<CommandOutcome<UserEvent>> {
    const personal = await this.personalOf(userId);
    const outcome = await this.handle({ type: 'DeleteUser', data: { userId } }, context, trace);
    const released = await this.releaseShiftsOf(userId, context);
    for (const value of personal ? uniqueValuesOf(personal) : []) {
      await this.unique.release(value, userId, context, trace);
    }
    await this.vault.erase(userId, personal);
    // A read naming this position sees the shifts let go too.
    return { ...outcome, position: released > outcome.position ? released : outcome.position };
  }

  /**
   * Each shift on the person's schedule, and each offered to them, is released once: the command
   * id names the shift and the person, so a deletion retried or repeated changes nothing twice.
   */
  private async releaseShiftsOf(userId: string, context: CommandContext): Promise<bigint> {
    const { state: schedule } = await this.handler.load(streams.schedule(userId), scheduleDecider);
    const shiftIds = new Set([
      ...schedule.reservations.map((r) => r.shiftId),
      ...(await this.shifts.offeredTo(userId)),
    ]);
    let last = 0n;
    for (const shiftId of shiftIds) {
      try {
        const outcome = await this.shifts.shift(
          { type: 'ReleaseHolder', data: { shiftId, userId } },
          context,
          {
            commandId: `ReleaseHolder:${shiftId}:${userId}`,
          },
        );
        if (outcome.events.length > 0 && outcome.position > last) last = outcome.position;
      } catch (error) {
        // A shift deleted, completed or expired meanwhile has nothing to let go of.
        if (!(error instanceof DomainError)) throw error;
      }
    }
    return last;
  }

  /** Commands that touch no unique value: passwords, residence assignment, preferences, sign-ins. */
  handle(
    command: UserCommand,
    context: CommandContext,
    trace: CommandTrace,
  ): Promise<CommandOutcome<UserEvent>> {
    return this.handler.handle(streams.user(command.data.userId), userDecider, command, context, trace);
  }

  async exists(userId: string): Promise<boolean> {
    const { state } = await this.handler.load(streams.user(userId), userDecider);
    return state.status === 'active';
  }

  /**
   * The account as it stands, once the command is found allowed on it: refused as it stands (by who
   * is asking, say), it is refused before any username or e-mail is reserved.
   */
  private async allowedAsItStands(command: UserCommand, context: CommandContext, trace: CommandTrace) {
    const stream = streams.user(command.data.userId);
    return (await this.handler.allowedAsItStands(stream, userDecider, command, context, trace)).state;
  }

  private async personalOf(userId: string) {
    const { state } = await this.handler.load(streams.user(userId), userDecider);
    return state.personal;
  }
}
