import {
  type CommandContext,
  type ResidenceCommand,
  type ResidenceEvent,
  residenceDecider,
  uniqueKey,
} from '@shiftcover/domain';
import type { CommandHandler, CommandTrace } from '@shiftcover/eventstore';
import type { CommandOutcome } from './shifts';
import { streams } from './streams';
import type { UniqueValues } from './uniqueness';

/** Residence commands: the residence's stream plus its name's reservation. */
export class Residences {
  constructor(
    private readonly handler: CommandHandler,
    private readonly unique: UniqueValues,
  ) {}

  async execute(
    command: ResidenceCommand,
    context: CommandContext,
    trace: CommandTrace,
  ): Promise<CommandOutcome<ResidenceEvent>> {
    const residenceId = command.data.residenceId;
    // Refused as the residence stands (none by that id, a name not allowed) before its name is reserved.
    const { state: before } = await this.handler.allowedAsItStands(
      streams.residence(residenceId),
      residenceDecider,
      command,
      context,
      trace,
    );
    const oldName = before.status === 'active' ? before.name : null;
    const newName = command.type === 'DeleteResidence' ? null : command.data.name;
    const wanted = newName === null ? [] : [{ kind: 'residence-name' as const, value: newName }];
    const outcome = await this.unique.within(wanted, residenceId, context, trace, () =>
      this.handler.handle(streams.residence(residenceId), residenceDecider, command, context, trace),
    );
    const renamed =
      newName === null || uniqueKey('residence-name', newName) !== uniqueKey('residence-name', oldName ?? '');
    if (oldName !== null && renamed && !outcome.duplicate) {
      await this.unique.release({ kind: 'residence-name', value: oldName }, residenceId, context, trace);
    }
    return outcome;
  }

  async exists(residenceId: string): Promise<boolean> {
    const { state } = await this.handler.load(streams.residence(residenceId), residenceDecider);
    return state.status === 'active';
  }
}
