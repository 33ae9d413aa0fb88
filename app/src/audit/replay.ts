import {
  audienceLabels,
  calendarFeedDecider,
  categoryOf,
  channelLabels,
  configDecider,
  credentialTypesDecider,
  type Decider,
  type EscalationStep,
  escalationPolicyDecider,
  inboxDecider,
  type OutreachNotice,
  outreachChannels,
  residenceDecider,
  type StreamCategory,
  scheduleDecider,
  shiftDecider,
  stepLabel,
  streamCategories,
  streams,
  uniquenessDecider,
  userDecider,
  workingTimeRulesDecider,
} from '@shiftcover/domain';
import type { CommandHandler, RecordedEvent } from '@shiftcover/eventstore';

// biome-ignore lint/suspicious/noExplicitAny: a stream's decider is chosen by name at run time
type AnyDecider = Decider<any, any, any>;

/** The decider that folds each category of stream. */
const deciders: Record<StreamCategory, AnyDecider | undefined> = {
  shift: shiftDecider,
  schedule: scheduleDecider,
  user: userDecider,
  residence: residenceDecider,
  config: configDecider,
  inbox: inboxDecider,
  operation: undefined,
  unique: uniquenessDecider,
  calendar: calendarFeedDecider,
};

export class UnknownStream extends Error {}

/** The config streams other than the e-mail mode's each have a decider of their own. */
const configDeciders: Record<string, AnyDecider> = {
  [streams.workingTimeRules()]: workingTimeRulesDecider,
  [streams.credentialTypes()]: credentialTypesDecider,
  [streams.escalationPolicy()]: escalationPolicyDecider,
};

export function deciderFor(streamId: string): AnyDecider {
  const own = configDeciders[streamId];
  if (own) return own;
  const category = categoryOf(streamId);
  const found = category && deciders[category];
  if (!found) {
    const known = streamCategories.filter((c) => deciders[c]).map((c) => `${c}-`);
    throw new UnknownStream(`Unknown stream ${streamId}: names start with ${known.join(', ')}`);
  }
  return found;
}

export interface Step {
  event: RecordedEvent;
  before: unknown;
  after: unknown;
}

/** A stream replayed event by event (personal data opened, old shapes upcast): each state change. */
export async function replay(handler: CommandHandler, streamId: string): Promise<Step[]> {
  const decider = deciderFor(streamId);
  const events = await handler.history(streamId);
  const steps: Step[] = [];
  let state = decider.initialState();
  for (const event of events) {
    const after = decider.evolve(state, { type: event.type, data: event.data });
    steps.push({ event, before: state, after });
    state = after;
  }
  return steps;
}

/** The state of a stream at a moment: every event recorded up to then, folded. */
export async function stateAsOf(
  handler: CommandHandler,
  streamId: string,
  moment: Date,
): Promise<{ state: unknown; applied: number; total: number }> {
  const steps = await replay(handler, streamId);
  const applied = steps.filter((step) => step.event.recordedAt <= moment);
  return {
    state: applied.at(-1)?.after ?? deciderFor(streamId).initialState(),
    applied: applied.length,
    total: steps.length,
  };
}

/** Field-level differences between two states, one level into nested objects. */
export function changes(before: unknown, after: unknown, prefix = ''): string[] {
  if (!isRecord(before) || !isRecord(after)) {
    return same(before, after) ? [] : [`${prefix || 'state'}: ${show(before)} → ${show(after)}`];
  }
  const keys = [...new Set([...Object.keys(before), ...Object.keys(after)])];
  return keys.flatMap((key) => {
    const name = prefix ? `${prefix}.${key}` : key;
    const [a, b] = [before[key], after[key]];
    if (same(a, b)) return [];
    if (!prefix && isRecord(a) && isRecord(b)) return changes(a, b, name);
    return [`${name}: ${show(a)} → ${show(b)}`];
  });
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value) && !(value instanceof Date);
}

function same(a: unknown, b: unknown): boolean {
  return show(a) === show(b);
}

function show(value: unknown): string {
  if (value === undefined) return '—';
  if (value instanceof Date) return value.toISOString();
  if (typeof value === 'bigint') return value.toString();
  const text = JSON.stringify(value, (_key, v) => (typeof v === 'bigint' ? v.toString() : v));
  return text.length > 120 ? `${text.slice(0, 117)}...` : text;
}

/**
 * What an event says that the shift's state does not keep: a refusal by a safety rule, and an
 * assignment against the working-time rules (docs/product.md §10.3).
 */
function detailOf(event: RecordedEvent): string | null {
  const data = event.data as Record<string, unknown>;
  if (event.type === 'ShiftRefused')
    return `Refused ${data.action} by ${data.userId}: ${data.message} (${data.code}, rules version ${data.rulesVersion})`;
  if (event.type === 'ShiftEscalated') {
    const { step, notices } = data as { step: EscalationStep; notices: OutreachNotice[] };
    return `${stepLabel(step)}, ${audienceLabels[step.audience].toLowerCase()}: ${toldSummary(notices)}`;
  }
  const override = data.override as { reason?: string } | undefined;
  if (event.type === 'ShiftAssigned' && override?.reason)
    return `Assigned against the working-time rules: ${override.reason}`;
  return null;
}

/**
 * How many were told, by which channel ("3 people told: 3 in the app, 2 by e-mail"); the outreach
 * (`GET /api/shifts/{id}/outreach`) names each of them.
 */
function toldSummary(notices: readonly OutreachNotice[]): string {
  if (notices.length === 0) return 'nobody to tell';
  const people = new Set(notices.flatMap((n) => (n.userId ? [n.userId] : []))).size;
  const counts = outreachChannels
    .map((channel) => [channel, notices.filter((n) => n.channel === channel).length] as const)
    .filter(([, count]) => count > 0)
    .map(([channel, count]) =>
      channel === 'mailing_list'
        ? channelLabels[channel]
        : `${count} ${channel === 'email' ? 'by e-mail' : channelLabels[channel]}`,
    );
  return `${people} ${people === 1 ? 'person' : 'people'} told: ${counts.join(', ')}`;
}

/** A shift's history for the read API's audit view. */
export async function shiftHistory(handler: CommandHandler, shiftId: string) {
  const steps = await replay(handler, streams.shift(shiftId));
  return steps.map(({ event, before, after }) => ({
    revision: event.revision.toString(),
    type: event.type,
    at: event.recordedAt,
    actorId: event.metadata.actorId,
    actorRole: event.metadata.actorRole,
    changes: changes(before, after),
    detail: detailOf(event),
  }));
}
