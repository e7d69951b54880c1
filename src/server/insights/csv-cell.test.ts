import { describe, expect, it } from 'vitest';
import { csvCell, csvLine } from './csv-cell';

describe('csvCell', () => {
  it('quotes a cell holding a comma, a quote or a line break, doubling the quotes', () => {
    expect(csvCell('a,b')).toBe('"a,b"');
    expect(csvCell('say "hi"')).toBe('"say ""hi"""');
    expect(csvCell('two\nlines')).toBe('"two\nlines"');
    expect(csvCell('plain words')).toBe('plain words');
  });

  it('attack: a shopper question written as a spreadsheet formula is kept as text', () => {
    expect(csvCell('=HYPERLINK("http://evil.example","click")')).toBe(
      '"\'=HYPERLINK(""http://evil.example"",""click"")"',
    );
    expect(csvCell('+1+1')).toBe("'+1+1");
    expect(csvCell('-2')).toBe("'-2");
    expect(csvCell('@SUM(A1)')).toBe("'@SUM(A1)");
    expect(csvCell('\tcmd')).toBe("'\tcmd");
  });

  it('writes numbers as they are (a negative count is no formula) and null as an empty cell', () => {
    expect(csvCell(-3)).toBe('-3');
    expect(csvCell(4.5)).toBe('4.5');
    expect(csvCell(null)).toBe('');
  });

  it('ends a line in CRLF', () => {
    expect(csvLine(['a', 1, null])).toBe('a,1,\r\n');
  });
});
