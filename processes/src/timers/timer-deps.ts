import type { Actor } from '@shiftcover/domain';
import type { Logger } from '@shiftcover/platform';
import type { Sql } from 'postgres';
import type { Commands } from '../commands';

/** What the timers read (the shifts read model) and write through (the command port). */
export interface ShiftTimerDeps {
  sql: Sql;
  service: Commands;
  clock?: () => Date;
  log?: Pick<Logger, 'info' | 'error'>;
}

/** The timers as the actor of the commands they send. */
export const TIMERS: Actor = { kind: 'system', name: 'timers' };
