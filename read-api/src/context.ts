import type {
  Capability,
  Credential,
  Principal,
  Reservation,
  TimeOff,
  VersionedEscalationPolicy,
  VersionedRules,
} from '@shiftcover/domain';
import { can, refusalFor } from '@shiftcover/domain';
import { HttpError } from '@shiftcover/platform';
import type { FastifyRequest } from 'fastify';
import type { Sql } from 'postgres';
import { minPosition, type Positions } from './consistency';
import type { LiveHub } from './live';

/** One event of a stream as an auditor reads it: when, who, what it was and what it changed. */
export interface HistoryEntry {
  revision: string;
  type: string;
  at: Date;
  actorId: string;
  actorRole: string;
  changes: string[];
  /** What the event says beyond the fields it changed: a refusal's rule and figures, an override's reason. */
  detail: string | null;
}

/** What the safety rules are checked against, read from the streams the commands decide on. */
export interface SafetyReads {
  record(userId: string): Promise<{
    reservations: Reservation[];
    credentials: Array<Credential & { recordedAt: string }>;
    timeOff: Array<TimeOff & { recordedAt: string }>;
  }>;
  typeList(): Promise<Array<{ credentialTypeId: string; name: string }>>;
  rules(): Promise<VersionedRules>;
  eligibility(
    shiftId: string,
    userId: string,
    self: boolean,
    now: Date,
  ): Promise<{ eligible: boolean; reasons: Array<{ code: string; message: string }> } | null>;
}

export interface ReadApiDeps {
  sql: Sql;
  positions: Positions;
  live: LiveHub;
  /** The signed-in user as they are now, or a 401. */
  currentUser(request: FastifyRequest): Promise<Principal>;
  clock?: () => Date;
  /**
   * The technical details of the audit entries with these ids (their events' positions), read from
   * the log; an entry whose event is not found has none.
   */
  auditDetails(ids: readonly string[]): Promise<Map<string, Record<string, unknown>>>;
  /** A shift's events replayed with what each changed (the audit view); none when not given. */
  shiftHistory?: (shiftId: string) => Promise<HistoryEntry[]>;
  /** Credentials, time off, the working-time rules and eligibility; 503 when not given. */
  safety?: SafetyReads;
  /** The escalation policy, read from its stream; 503 when not given. */
  escalation?: { policy(): Promise<VersionedEscalationPolicy> };
}

/** Which read models each view reads: a request waits for these before it reads. */
export const readModels = {
  shifts: ['shifts', 'users'],
  /** The pending claims are ranked on the claimants' credentials too. */
  pending: ['shifts', 'users', 'credentials'],
  users: ['users', 'residences'],
  residences: ['residences'],
  completed: ['completed_shifts', 'users'],
  audit: ['audit_log', 'users'],
  notifications: ['notifications'],
  config: ['system_config'],
  outreach: ['outreach', 'shifts', 'users', 'residences'],
  analytics: ['coverage', 'users', 'residences'],
} as const;

/**
 * Signs the reader in, checks the capability, and waits for their own last write if they named it.
 * For a request with a session, the wait begins beside the check that its user is still active,
 * not after it: under load each is a trip of its own, and the wait reveals nothing (a refused
 * reader is answered as soon as the check fails). A request without one is refused before anything
 * is waited for or looked at.
 */
export async function reader(
  request: FastifyRequest,
  deps: ReadApiDeps,
  models: readonly string[],
  capability?: Capability,
): Promise<Principal> {
  const min = minPosition(request.headers['x-min-position']);
  const waited = min === undefined || !request.session ? undefined : deps.positions.waitFor(min, models);
  // Should the check fail first, the wait's own end is of no interest.
  waited?.catch(() => undefined);
  const who = await deps.currentUser(request);
  if (capability && !can(who, capability)) throw new HttpError(403, refusalFor(capability));
  if (waited) await waited;
  else if (min !== undefined) await deps.positions.waitFor(min, models);
  return who;
}

export const now = (deps: ReadApiDeps) => deps.clock?.() ?? new Date();
