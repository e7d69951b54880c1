// @vitest-environment node
import { describe, expect, it } from 'vitest';
import { tablesAsLists } from './tables-as-lists';

describe('tablesAsLists()', () => {
  it('turns each row of a table into a list item that names its columns, and leaves the rest alone', () => {
    const markdown = [
      'Delivery times:',
      '',
      '| Country | Time | Cost |',
      '| --- | :---: | ---: |',
      '| Germany | 1–3 days | free from €50 |',
      '| Austria, Switzerland | 3–5 days | €9.95 |',
      '',
      'Outside Europe we do not deliver yet.',
    ].join('\n');
    expect(tablesAsLists(markdown)).toBe(
      [
        'Delivery times:',
        '',
        '- **Germany**: Time 1–3 days; Cost free from €50',
        '- **Austria, Switzerland**: Time 3–5 days; Cost €9.95',
        '',
        'Outside Europe we do not deliver yet.',
      ].join('\n'),
    );
  });

  it('keeps a line with a pipe that is no table, and a row with empty cells', () => {
    expect(tablesAsLists('Open Mon | Fri')).toBe('Open Mon | Fri');
    expect(tablesAsLists('A | B\n---|---\nx |')).toBe('- **x**');
  });
});
