import { stringify } from 'csv-stringify/sync';

export type CsvCell = string | number;

/**
 * Rows as CSV (RFC 4180): CRLF line ends, a cell quoted when it holds a comma, a quote or a line
 * break. A cell a spreadsheet would run as a formula (starting with `=`, `+`, `-`, `@`, a tab or a
 * carriage return) gets a leading `'`, as OWASP advises against CSV injection: names and
 * locations come from users, and the reports are opened by super admins. Every CSV the product
 * writes goes through here.
 */
export function csv(rows: CsvCell[][]): string {
  return stringify(rows, {
    escape_formulas: true,
    record_delimiter: 'windows',
    // A lone line feed or carriage return ends a record for most readers: quote it too.
    quoted_match: /[\r\n]/,
  });
}
