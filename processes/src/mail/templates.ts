import { formatShiftDate, timeRangeLabel } from '@shiftcover/domain';

export interface ShiftInfo {
  location: string;
  date: string;
  start_time: string;
  end_time: string;
  type: string;
  requirements: string | null;
  priority: string;
}

export interface Mail {
  kind: string;
  subject: string;
  text: string;
  html: string;
}

const escapeHtml = (text: string) =>
  text.replace(
    /[&<>"']/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!,
  );

/** One message in plain text and HTML, with the shift's details in Eastern time and a link. */
export function mail(kind: string, subject: string, lead: string, shift: ShiftInfo, link: string): Mail {
  const when = `${formatShiftDate(shift.date)}, ${timeRangeLabel(shift.start_time, shift.end_time)} (Eastern time)`;
  const lines = [
    lead,
    '',
    `Where: ${shift.location}`,
    `When: ${when}`,
    `Shift: ${shift.type}${shift.priority !== 'open' ? ` (${shift.priority})` : ''}`,
    ...(shift.requirements ? [`Requirements: ${shift.requirements}`] : []),
    '',
    `Open Shift Coverage: ${link}`,
  ];
  const rows = [
    ['Where', shift.location],
    ['When', when],
    ['Shift', `${shift.type}${shift.priority !== 'open' ? ` (${shift.priority})` : ''}`],
    ...(shift.requirements ? [['Requirements', shift.requirements]] : []),
  ];
  const html = `<!doctype html><html><body style="font-family:system-ui,sans-serif;color:#1f2937">
<p>${escapeHtml(lead)}</p>
<table style="border-collapse:collapse">${rows
    .map(
      ([k, v]) =>
        `<tr><td style="padding:4px 12px 4px 0;color:#6b7280">${escapeHtml(k!)}</td><td style="padding:4px 0">${escapeHtml(v!)}</td></tr>`,
    )
    .join('')}</table>
<p><a href="${escapeHtml(link)}" style="color:#2563eb">Open Shift Coverage</a></p>
</body></html>`;
  return { kind, subject, text: lines.join('\n'), html };
}
