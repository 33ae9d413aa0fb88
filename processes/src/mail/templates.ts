import { shiftTimeLabel } from '@shiftcover/domain';

export interface ShiftInfo {
  location: string;
  date: string;
  start_time: string;
  end_time: string;
  type: string;
  requirements: string | null;
  priority: string;
}

export interface Attachment {
  filename: string;
  contentType: string;
  content: string;
}

export interface Mail {
  kind: string;
  subject: string;
  text: string;
  html: string;
  attachments?: Attachment[];
}

/** A paragraph, or a table with an optional heading row. */
export type Block = string | { head?: string[]; rows: string[][] };

export const escapeHtml = (text: string) =>
  text.replace(
    /[&<>"']/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!,
  );

const cell = (text: string, head = false) =>
  `<${head ? 'th' : 'td'} style="padding:4px 12px 4px 0;text-align:left;${head ? 'color:#6b7280' : ''}">${escapeHtml(text)}</${head ? 'th' : 'td'}>`;

/** One message in plain text and HTML: paragraphs and tables, then a link to the product. */
export function compose(kind: string, subject: string, blocks: Block[], link: string): Mail {
  const text = blocks.map((block) =>
    typeof block === 'string'
      ? block
      : [
          ...(block.head ? [block.head.join(' | ')] : []),
          ...block.rows.map((row) => row.join(block.head ? ' | ' : ': ')),
        ].join('\n'),
  );
  const html = blocks.map((block) =>
    typeof block === 'string'
      ? `<p>${escapeHtml(block).replace(/\n/g, '<br>')}</p>`
      : `<table style="border-collapse:collapse">${block.head ? `<tr>${block.head.map((h) => cell(h, true)).join('')}</tr>` : ''}${block.rows
          .map((row) => `<tr>${row.map((v, i) => cell(v, !block.head && i === 0)).join('')}</tr>`)
          .join('')}</table>`,
  );
  return {
    kind,
    subject,
    text: [...text, `Open Shift Coverage: ${link}`].join('\n\n'),
    html: `<!doctype html><html><body style="font-family:system-ui,sans-serif;color:#1f2937">
${html.join('\n')}
<p><a href="${escapeHtml(link)}" style="color:#2563eb">Open Shift Coverage</a></p>
</body></html>`,
  };
}

/** A mail about one shift, with its details in Eastern time. */
export function mail(kind: string, subject: string, lead: string, shift: ShiftInfo, link: string): Mail {
  const when = `${shiftTimeLabel(shift.date, shift.start_time, shift.end_time)} (Eastern time)`;
  const rows = [
    ['Where', shift.location],
    ['When', when],
    ['Shift', `${shift.type}${shift.priority !== 'open' ? ` (${shift.priority})` : ''}`],
    ...(shift.requirements ? [['Requirements', shift.requirements]] : []),
  ];
  return compose(kind, subject, [lead, { rows }], link);
}
