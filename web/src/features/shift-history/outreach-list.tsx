import {
  audienceLabels,
  channelLabels,
  easternWeekdayTimestamp,
  type OutreachNoticeView,
} from '@shiftcover/domain';
import { useQuery } from '@tanstack/react-query';
import { api } from '../../api/client';
import { keys } from '../../api/keys';
import { Spinner } from '../../components/ui/feedback';

/**
 * docs/product.md §11: whom the escalation ladder told of the shift, when, how and at which step.
 * The admins of other residences are refused, and read why.
 */
export function OutreachList({ shiftId }: { shiftId: string }) {
  const { data, isLoading, error } = useQuery({
    queryKey: keys.shiftOutreach(shiftId),
    queryFn: () => api.get<OutreachNoticeView[]>(`/api/shifts/${shiftId}/outreach`),
    staleTime: 0,
  });
  return (
    <section aria-labelledby={`outreach-${shiftId}`} className="grid gap-2">
      <h3 id={`outreach-${shiftId}`} className="font-semibold text-slate-900">
        Outreach
      </h3>
      {isLoading ? (
        <Spinner label="Loading outreach" />
      ) : error || !data ? (
        <p className="text-sm text-slate-600">{error?.message}</p>
      ) : data.length === 0 ? (
        <p className="text-sm text-slate-600">The escalation ladder has told nobody of this shift yet.</p>
      ) : (
        <div className="overflow-x-auto">
          <table className="w-full text-left text-sm">
            <caption className="sr-only">Who the escalation ladder told, oldest first (Eastern time)</caption>
            <thead className="text-xs text-slate-600">
              <tr>
                <th scope="col" className="py-1 pr-3 font-medium">
                  When
                </th>
                <th scope="col" className="py-1 pr-3 font-medium">
                  Step
                </th>
                <th scope="col" className="py-1 pr-3 font-medium">
                  Who
                </th>
                <th scope="col" className="py-1 font-medium">
                  Channel
                </th>
              </tr>
            </thead>
            <tbody className="text-slate-800">
              {data.map((notice, i) => (
                // biome-ignore lint/suspicious/noArrayIndexKey: notices are listed once, in the server's order
                <tr key={i} className="border-t border-slate-100">
                  <td className="py-1 pr-3 whitespace-nowrap">
                    <time dateTime={String(notice.sentAt)}>{easternWeekdayTimestamp(notice.sentAt)}</time>
                  </td>
                  <td className="py-1 pr-3">
                    {notice.stepLabel}
                    {notice.opening > 1 && `, opening ${notice.opening}`} ({audienceLabels[notice.audience]})
                  </td>
                  <td className="py-1 pr-3">{notice.userName ?? 'Mailing list'}</td>
                  <td className="py-1">{channelLabels[notice.channel]}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}
