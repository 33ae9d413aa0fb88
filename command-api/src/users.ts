import {
  type CommandContext,
  type RegisterUserData,
  type UpdateUserData,
  type UserCommand,
  type UserEvent,
  uniqueKey,
  userDecider,
} from '@shiftcover/domain';
import type { CommandHandler, CommandTrace, PersonalDataVault } from '@shiftcover/eventstore';
import type { CommandOutcome } from './shifts';
import { streams } from './streams';
import type { UniqueValue, UniqueValues } from './uniqueness';

function uniqueValuesOf(personal: { username: string; email?: string | null }): UniqueValue[] {
  const values: UniqueValue[] = [{ kind: 'username', value: personal.username }];
  if (personal.email) values.push({ kind: 'email', value: personal.email });
  return values;
}

/** User commands: the user's stream, plus username and e-mail reservations and erasure. */
export class Users {
  constructor(
    private readonly handler: CommandHandler,
    private readonly unique: UniqueValues,
    private readonly vault: PersonalDataVault,
  ) {}

  register(
    data: RegisterUserData,
    context: CommandContext,
    trace: CommandTrace,
  ): Promise<CommandOutcome<UserEvent>> {
    return this.unique.within(uniqueValuesOf(data.personal), data.userId, context, trace, () =>
      this.handle({ type: 'RegisterUser', data }, context, trace),
    );
  }

  async update(
    data: UpdateUserData,
    context: CommandContext,
    trace: CommandTrace,
  ): Promise<CommandOutcome<UserEvent>> {
    const before = await this.personalOf(data.userId);
    const wanted = uniqueValuesOf(data.personal);
    const outcome = await this.unique.within(wanted, data.userId, context, trace, () =>
      this.handle({ type: 'UpdateUser', data }, context, trace),
    );
    for (const old of before ? uniqueValuesOf(before) : []) {
      const kept = wanted.some(
        (w) => w.kind === old.kind && uniqueKey(w.kind, w.value) === uniqueKey(old.kind, old.value),
      );
      if (!kept) await this.unique.release(old, data.userId, context, trace);
    }
    return outcome;
  }

  /** Deletes the account, frees its username and e-mail, then destroys its personal data key. */
  async delete(
    userId: string,
    context: CommandContext,
    trace: CommandTrace,
  ): Promise<CommandOutcome<UserEvent>> {
    const personal = await this.personalOf(userId);
    const outcome = await this.handle({ type: 'DeleteUser', data: { userId } }, context, trace);
    for (const value of personal ? uniqueValuesOf(personal) : []) {
      await this.unique.release(value, userId, context, trace);
    }
    await this.vault.erase(userId);
    return outcome;
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

  private async personalOf(userId: string) {
    const { state } = await this.handler.load(streams.user(userId), userDecider);
    return state.personal;
  }
}
