import { describe, expect, it } from 'vitest';
import { csv } from './csv';

describe('CSV', () => {
  it('quotes commas, quotes and line breaks, and ends every row with CRLF', () => {
    expect(csv([['Name', 'Hours']])).toBe('Name,Hours\r\n');
    expect(csv([['Oak, Lodge', 'the "big" one', 'two\nlines', 'cr\ronly', 8.5, '']])).toBe(
      '"Oak, Lodge","the ""big"" one","two\nlines","cr\ronly",8.5,\r\n',
    );
  });

  it('never lets a cell start a formula', () => {
    const row = ['=HYPERLINK("http://x","y")', '+1+1', '-2+3', '@SUM(A1)', '\tcmd', '\rcmd', '＝1'];
    expect(csv([row])).toBe(
      `"'=HYPERLINK(""http://x"",""y"")",'+1+1,'-2+3,'@SUM(A1),'\tcmd,"'\rcmd",'＝1\r\n`,
    );
  });

  it('leaves numbers, dates and ordinary text alone', () => {
    expect(csv([['2026-03-20', '22:00', 'Maple House', 8, '8.00', 'Zoë']])).toBe(
      '2026-03-20,22:00,Maple House,8,8.00,Zoë\r\n',
    );
  });
});
