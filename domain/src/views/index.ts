export * from './analytics';
export * from './answers';
export * from './calendar';
export * from './escalation';
export * from './people';
export * from './records';
export * from './safety';
export * from './shifts';

/**
 * The read side's views as screens keep them open. The live feed names the ones a change touches,
 * and the web app refreshes what it shows of them: one vocabulary for both.
 */
export type View =
  | 'shifts'
  | 'pending'
  | 'drop-requests'
  | 'transfer-requests'
  | 'my-shifts'
  | 'stats'
  | 'users'
  | 'residences'
  | 'completed-shifts'
  | 'audit-logs'
  | 'notifications'
  | 'config'
  /** A person's credentials, and their time off (docs/product.md §10). */
  | 'credentials'
  | 'time-off';

/**
 * What the live feed tells a screen of the events read together: the views they change for it, and
 * the shifts whose own events were among them (a shift's eligibility for a person changes with the
 * shift and with the person's schedule, not with every other shift).
 */
export interface ChangeNotice {
  views: View[];
  shifts: string[];
}
