import { TIME_ZONE, zonedInstant } from '@shiftcover/domain';

/**
 * A moment given on the command line: an ISO instant with an offset or Z, or an Eastern
 * wall-clock date ('2026-03-08') or date and time ('2026-03-08 14:30').
 */
export function parseMoment(text: string): Date | undefined {
  if (/[zZ]$|[+-]\d\d:?\d\d$/.test(text)) {
    const at = new Date(text);
    return Number.isNaN(at.getTime()) ? undefined : at;
  }
  const match = /^(\d{4}-\d{2}-\d{2})(?:[ T](\d{2}:\d{2}(?::\d{2})?))?$/.exec(text);
  if (!match) return undefined;
  const at = zonedInstant(match[1]!, match[2] ?? '00:00', TIME_ZONE);
  return Number.isNaN(at.getTime()) ? undefined : at;
}
