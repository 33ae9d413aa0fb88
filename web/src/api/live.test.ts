import { QueryClient } from '@tanstack/react-query';
import { describe, expect, it } from 'vitest';
import { keys } from './keys';
import { applyNotice } from './live';

/** A client holding one answer for each of these queries, none of them stale. */
function holding(...queryKeys: (readonly unknown[])[]) {
  const client = new QueryClient({ defaultOptions: { queries: { staleTime: Number.POSITIVE_INFINITY } } });
  for (const queryKey of queryKeys) client.setQueryData(queryKey, 'held');
  const asked = () =>
    queryKeys.filter((queryKey) => client.getQueryState(queryKey)?.isInvalidated).map((key) => key.join(' '));
  return { client, asked };
}

const list = keys.shiftPages({ status: 'open' });
const [one, other] = [keys.eligibility('shift-1'), keys.eligibility('shift-2')];

describe('a live change notice', () => {
  it('asks again for the views it names, and for the eligibility of the shifts it names alone', async () => {
    const { client, asked } = holding(list, one, other, keys.myShifts, keys.notifications);
    await applyNotice(client, { views: ['shifts', 'stats'], shifts: ['shift-1'] });
    expect(asked()).toEqual([list.join(' '), one.join(' ')]);
  });

  it('asks again for every eligibility when the person’s schedule, credentials, time off or the rules changed', async () => {
    for (const view of ['my-shifts', 'credentials', 'time-off', 'config'] as const) {
      const { client, asked } = holding(list, one, other);
      await applyNotice(client, { views: [view], shifts: [] });
      expect(asked(), view).toEqual([one.join(' '), other.join(' ')]);
    }
  });

  it('asks again for a person’s credentials and time off under the views the feed names them by', async () => {
    const { client, asked } = holding(keys.credentials('staff-1'), keys.timeOff('staff-1'), keys.myTimeOff);
    await applyNotice(client, { views: ['credentials'], shifts: [] });
    expect(asked()).toEqual([keys.credentials('staff-1').join(' ')]);
    await applyNotice(client, { views: ['time-off'], shifts: [] });
    expect(asked()).toHaveLength(3);
  });
});
