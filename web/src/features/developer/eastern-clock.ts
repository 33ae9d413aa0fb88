const parts = new Intl.DateTimeFormat('en-US', {
  timeZone: 'America/New_York',
  weekday: 'long',
  month: 'long',
  day: 'numeric',
  year: 'numeric',
  hour: 'numeric',
  minute: '2-digit',
  second: '2-digit',
  timeZoneName: 'short',
});

export interface ClockReading {
  time: string;
  date: string;
  /** EST in winter, EDT in summer: the zone's real daylight-saving rules. */
  zone: string;
}

/** The system clock read in US Eastern time. */
export function easternClock(now: Date): ClockReading {
  const part = (type: Intl.DateTimeFormatPartTypes) =>
    parts.formatToParts(now).find((p) => p.type === type)?.value ?? '';
  return {
    time: `${part('hour')}:${part('minute')}:${part('second')} ${part('dayPeriod')}`,
    date: `${part('weekday')}, ${part('month')} ${part('day')}, ${part('year')}`,
    zone: part('timeZoneName'),
  };
}
