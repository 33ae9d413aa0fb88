import {
  type CommandContext,
  type EscalationPolicyCommand,
  escalationPolicyDecider,
  type VersionedEscalationPolicy,
} from '@shiftcover/domain';
import type { CommandHandler, CommandTrace } from '@shiftcover/eventstore';
import { streams } from './streams';

/** The escalation policy (docs/product.md §11), kept on its own config stream. */
export class Escalation {
  constructor(private readonly handler: CommandHandler) {}

  setPolicy(command: EscalationPolicyCommand, context: CommandContext, trace: CommandTrace) {
    return this.handler.handle(streams.escalationPolicy(), escalationPolicyDecider, command, context, trace);
  }

  async policy(): Promise<VersionedEscalationPolicy> {
    return (await this.handler.load(streams.escalationPolicy(), escalationPolicyDecider)).state;
  }
}
