// @vitest-environment node
import { describe, expect, it } from 'vitest';
import { clip, documentTitleOf, splitMarkdown } from './markdown-sections';

describe('splitMarkdown()', () => {
  it('makes a section of each # to ### heading, titled by it, in document order', () => {
    const doc = '# Shipping\nWithin 2 days.\n\n## Returns\n30 days.\n### Exchanges\nReturn and reorder.\n';
    expect(splitMarkdown(doc, 'help')).toEqual([
      { title: 'Shipping', text: 'Within 2 days.', context: '' },
      { title: 'Returns', text: '30 days.', context: 'Shipping' },
      { title: 'Exchanges', text: 'Return and reorder.', context: 'Shipping › Returns' },
    ]);
  });

  it('titles the text before the first heading after the document', () => {
    expect(splitMarkdown('Welcome to our help.\n\n# Contact\nservice@shop.example', 'help')).toEqual([
      { title: 'help', text: 'Welcome to our help.', context: '' },
      { title: 'Contact', text: 'service@shop.example', context: '' },
    ]);
  });

  it('drops sections with no text: a heading right before another, and blank lines', () => {
    const doc = '\n\n# Store\n\n## Opening hours\n\nMon–Fri 9–18\n## Holidays\n   \n';
    expect(splitMarkdown(doc, 'help')).toEqual([
      { title: 'Opening hours', text: 'Mon–Fri 9–18', context: 'Store' },
    ]);
  });

  it('keeps #### and deeper headings inside their section, and needs a space after the #s', () => {
    const doc = '## Payment\nWe take:\n#### Cards\nVisa\n#hashtag is text\n####### seven';
    expect(splitMarkdown(doc, 'help')).toEqual([
      { title: 'Payment', text: 'We take:\n#### Cards\nVisa\n#hashtag is text\n####### seven', context: '' },
    ]);
  });

  it('ignores a # inside a fenced code block, with backticks or tildes', () => {
    const doc = '## Setup\n```sh\n# not a heading\n```\n~~~~\n## nor this\n~~~\n~~~~\ndone\n## Next\ntext';
    const sections = splitMarkdown(doc, 'help');
    expect(sections.map((s) => s.title)).toEqual(['Setup', 'Next']);
    expect(sections[0].text).toContain('# not a heading');
    expect(sections[0].text).toContain('## nor this');
  });

  it('takes CRLF and CR line ends, a BOM, up to 3 spaces of indent and a closing # sequence', () => {
    const doc = '\uFEFF   ## Shipping ##\r\nFast.\r# Returns #\rEasy.';
    expect(splitMarkdown(doc, 'help')).toEqual([
      { title: 'Shipping', text: 'Fast.', context: '' },
      { title: 'Returns', text: 'Easy.', context: '' },
    ]);
  });

  it('gives an empty heading the document title', () => {
    expect(splitMarkdown('##\nText under an empty heading.', 'help')).toEqual([
      { title: 'help', text: 'Text under an empty heading.', context: '' },
    ]);
  });

  it('clips a section longer than the limit, and a title longer than 200 characters', () => {
    const long = `## ${'T'.repeat(300)}\n${'word '.repeat(5000)}`;
    const [section] = splitMarkdown(long, 'help', 1000);
    expect(section.title).toHaveLength(200);
    expect(section.text.length).toBeLessThanOrEqual(1000);
    expect(section.text.endsWith('word…')).toBe(true);
  });

  it('returns nothing for an empty document or one of headings only', () => {
    expect(splitMarkdown('', 'help')).toEqual([]);
    expect(splitMarkdown('# A\n## B\n### C\n', 'help')).toEqual([]);
  });

  it('splits a 1 MB document of 10,000 headings in linear time (no backtracking on hostile lines)', () => {
    const doc = Array.from(
      { length: 10_000 },
      (_, i) => `## Topic ${i}\n${'#'.repeat(50)} ${' '.repeat(40)}x\n`,
    ).join('');
    const started = performance.now();
    const sections = splitMarkdown(doc, 'help');
    expect(sections).toHaveLength(10_000);
    expect(performance.now() - started).toBeLessThan(1000);
  });
});

describe('clip()', () => {
  it('leaves a short text alone and cuts a long one at a space, ending in …', () => {
    expect(clip('short', 10)).toBe('short');
    expect(clip('one two three four', 10)).toBe('one two…');
  });

  it('never cuts a surrogate pair in half', () => {
    const text = `${'a'.repeat(8)}😀😀😀`;
    const out = clip(text, 10);
    expect(out.length).toBeLessThanOrEqual(10);
    expect(out).toBe(`${'a'.repeat(8)}…`);
  });
});

describe('documentTitleOf()', () => {
  it('names a document after its file, or its host', () => {
    expect(documentTitleOf('https://shop.example/help/shipping-and-returns.md')).toBe('shipping and returns');
    expect(documentTitleOf('https://shop.example/help/Versand%20%26%20R%C3%BCckgabe.md')).toBe(
      'Versand & Rückgabe',
    );
    expect(documentTitleOf('https://shop.example/')).toBe('shop.example');
    expect(documentTitleOf('https://shop.example/faq?lang=de')).toBe('faq');
  });
});
