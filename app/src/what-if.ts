import { parseArgs } from 'node:util';
import { replayUnderRules, Safety } from '@shiftcover/command-api';
import {
  defaultWhatIfFrom,
  easternMidnight,
  firstIssueMessage,
  isCalendarDate,
  nextDate,
  shiftTimeLabel,
  type WhatIfView,
  workingTimeRulesSchema,
} from '@shiftcover/domain';
import type { Runtime } from './runtime';

export class WhatIfUsageError extends Error {}

type Write = (text: string) => void;

function easternDay(value: string | undefined, option: string): string | undefined {
  if (value === undefined) return undefined;
  if (!isCalendarDate(value)) throw new WhatIfUsageError(`--${option} must be a date, YYYY-MM-DD`);
  return value;
}

function number(value: string | undefined): number | undefined {
  return value === undefined ? undefined : Number(value);
}

/** The proposed rules and period the options name; the rules in force fill in the rest. */
async function proposal(runtime: Runtime, args: string[], now: Date) {
  const { values } = parseArgs({
    args,
    options: {
      'min-rest-hours': { type: 'string' },
      'max-hours-per-week': { type: 'string' },
      'max-consecutive-days': { type: 'string' },
      from: { type: 'string' },
      to: { type: 'string' },
      json: { type: 'boolean', default: false },
    },
  });
  const proposed = workingTimeRulesSchema.partial().safeParse(
    Object.fromEntries(
      Object.entries({
        minRestHours: number(values['min-rest-hours']),
        maxHoursPerWeek: number(values['max-hours-per-week']),
        maxConsecutiveDays: number(values['max-consecutive-days']),
      }).filter(([, v]) => v !== undefined),
    ),
  );
  if (!proposed.success) throw new WhatIfUsageError(firstIssueMessage(proposed.error));
  const rules = { ...(await new Safety(runtime.handler).rules()), ...proposed.data };
  // --to names the last Eastern day replayed, included.
  const to = easternDay(values.to, 'to');
  const until = to ? easternMidnight(nextDate(to)) : now;
  const fromDay = easternDay(values.from, 'from');
  const from = fromDay ? easternMidnight(fromDay) : defaultWhatIfFrom(until);
  if (from >= until) throw new WhatIfUsageError('--from must come before --to');
  return { rules, from, until, json: values.json };
}

function describe(report: WhatIfView, write: Write): void {
  const { rules } = report;
  write(
    `Rules: at least ${rules.minRestHours} h of rest, at most ${rules.maxHoursPerWeek} h a week, at most ${rules.maxConsecutiveDays} days in a row\n`,
  );
  write(`Period: ${report.from} to ${report.until}\n`);
  write(`${report.violations.length} violation${report.violations.length === 1 ? '' : 's'}\n`);
  if (report.violations.length === 0) return;
  write('\nBy rule:\n');
  for (const [code, count] of Object.entries(report.byRule)) write(`  ${code.padEnd(28)}${count}\n`);
  write('\nBy person:\n');
  for (const p of report.byPerson) write(`  ${p.userName} (${p.userId})  ${p.violations}\n`);
  write('\nShifts:\n');
  for (const v of report.violations) {
    const { location, date, startTime, endTime } = v.shift;
    write(
      `  ${shiftTimeLabel(date, startTime, endTime)}, ${location}  ${v.userName}  ${v.code}: ${v.message}\n`,
    );
  }
}

/**
 * `what-if`: the shifts held in a past period (the last 30 days unless --from and --to name Eastern
 * days) replayed from the event log under proposed working-time rules (docs/product.md §10.5).
 * It writes nothing.
 */
export async function whatIfCommand(runtime: Runtime, args: string[], write: Write, now = new Date()) {
  const { rules, from, until, json } = await proposal(runtime, args, now);
  const report = await replayUnderRules(runtime.handler, runtime.store, rules, from, until);
  if (json) write(`${JSON.stringify(report, null, 2)}\n`);
  else describe(report, write);
}
