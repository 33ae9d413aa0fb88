import { randomUUID } from 'node:crypto';
import { type CommandContext, type UniqueKind, uniqueKey, uniquenessDecider } from '@shiftcover/domain';
import type { CommandHandler, CommandTrace } from '@shiftcover/eventstore';
import { RESERVATION_GRACE_MS, streams } from './streams';

export interface UniqueValue {
  kind: UniqueKind;
  value: string;
}

/**
 * Usernames, e-mail addresses and residence names are unique through reservation streams: the
 * first append to a value's stream wins, whatever the read models say. A reservation whose owner
 * never came to exist (the command died half-way) is taken over once past the grace period.
 */
export class UniqueValues {
  constructor(
    private readonly handler: CommandHandler,
    private readonly ownerExists: (kind: UniqueKind, ownerId: string) => Promise<boolean>,
  ) {}

  /**
   * Reserves each value for the owner, runs the action, and releases what it reserved if the
   * action fails. Values the owner already holds are left as they are.
   */
  async within<T>(
    values: UniqueValue[],
    ownerId: string,
    context: CommandContext,
    trace: CommandTrace,
    action: () => Promise<T>,
  ): Promise<T> {
    const reserved: UniqueValue[] = [];
    const execution = { ...trace, commandId: `${trace.commandId}#${randomUUID()}` };
    try {
      for (const value of values) {
        if (await this.reserve(value, ownerId, context, execution)) reserved.push(value);
      }
      return await action();
    } catch (error) {
      for (const value of reserved.reverse()) await this.release(value, ownerId, context, execution);
      throw error;
    }
  }

  async release(
    value: UniqueValue,
    ownerId: string,
    context: CommandContext,
    trace: CommandTrace,
  ): Promise<void> {
    await this.handler.handle(
      this.streamOf(value),
      uniquenessDecider,
      { type: 'ReleaseValue', data: { kind: value.kind, ownerId } },
      context,
      { ...trace, commandId: `${trace.commandId}:release:${value.kind}:${ownerId}` },
    );
  }

  /** Returns true when this call made the reservation (false: the owner already held it). */
  private async reserve(value: UniqueValue, ownerId: string, context: CommandContext, trace: CommandTrace) {
    const streamId = this.streamOf(value);
    const { state } = await this.handler.load(streamId, uniquenessDecider);
    if (state.ownerId === ownerId) return false;
    let staleOwnerId: string | undefined;
    if (
      state.ownerId !== null &&
      state.reservedAt !== null &&
      context.now.getTime() - Date.parse(state.reservedAt) >= RESERVATION_GRACE_MS &&
      !(await this.ownerExists(value.kind, state.ownerId))
    ) {
      staleOwnerId = state.ownerId;
    }
    await this.handler.handle(
      streamId,
      uniquenessDecider,
      { type: 'ReserveValue', data: { kind: value.kind, ownerId, staleOwnerId } },
      context,
      { ...trace, commandId: `${trace.commandId}:reserve:${value.kind}` },
    );
    return true;
  }

  private streamOf(value: UniqueValue): string {
    return streams.unique(value.kind, uniqueKey(value.kind, value.value));
  }
}
