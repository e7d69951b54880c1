import { describe, expect, it } from 'vitest';
import { type MdBlock, parseInline, parseMarkdown } from './markdown-parse';

const p = (...children: unknown[]) => ({ type: 'p', children });
const strong = (...children: unknown[]) => ({ type: 'strong', children });
const em = (...children: unknown[]) => ({ type: 'em', children });
const link = (href: string, ...children: unknown[]) => ({ type: 'link', href, children });
const br = { type: 'br' };

/** Every string in a tree, in order: what the user would read. */
function textOf(nodes: unknown): string {
  if (typeof nodes === 'string') return nodes;
  if (Array.isArray(nodes)) return nodes.map(textOf).join('');
  const n = nodes as Record<string, unknown>;
  if (n.type === 'code') return String(n.text);
  if (n.type === 'br') return '\n';
  return textOf(n.children ?? n.items ?? []) + textOf(n.list ?? []);
}

describe('parseInline()', () => {
  it('reads **strong**, __strong__, *em* and _em_', () => {
    expect(parseInline('a **b** __c__ *d* _e_')).toEqual([
      'a ',
      strong('b'),
      ' ',
      strong('c'),
      ' ',
      em('d'),
      ' ',
      em('e'),
    ]);
  });

  it('nests emphasis, ***both*** included', () => {
    expect(parseInline('**bold *and em***')).toEqual([strong('bold ', em('and em'))]);
    expect(parseInline('***x***')).toEqual([strong(em('x'))]);
  });

  it('keeps underscores inside words and lone stars between spaces literal', () => {
    expect(parseInline('snake_case_name and 2 * 3 * 4')).toEqual(['snake_case_name and 2 * 3 * 4']);
  });

  it('reads `inline code` literally, markdown and HTML inside it included', () => {
    expect(parseInline('run `npm **i** <b>` now')).toEqual([
      'run ',
      { type: 'code', text: 'npm **i** <b>' },
      ' now',
    ]);
    expect(parseInline('``a ` b``')).toEqual([{ type: 'code', text: 'a ` b' }]);
  });

  it('reads [links](url), with emphasis in the text and an optional title dropped', () => {
    expect(parseInline('see [the **shop**](https://shop.example/a_b "Title") now')).toEqual([
      'see ',
      link('https://shop.example/a_b', 'the ', strong('shop')),
      ' now',
    ]);
  });

  it('links bare http(s) URLs, leaving trailing punctuation to the sentence', () => {
    expect(parseInline('Go to https://shop.example/p?id=1, or (http://x.example/a).')).toEqual([
      'Go to ',
      link('https://shop.example/p?id=1', 'https://shop.example/p?id=1'),
      ', or (',
      link('http://x.example/a', 'http://x.example/a'),
      ').',
    ]);
    expect(parseInline('**https://shop.example**')).toEqual([
      strong(link('https://shop.example', 'https://shop.example')),
    ]);
  });

  it('does not link a URL glued to a word, nor inside link text', () => {
    expect(parseInline('xhttps://a.example')).toEqual(['xhttps://a.example']);
    expect(parseInline('[https://a.example](https://b.example)')).toEqual([
      link('https://b.example', 'https://a.example'),
    ]);
  });

  it('turns an image into a link labelled with its alt text', () => {
    expect(parseInline('![A red shoe](https://cdn.example/shoe.png)')).toEqual([
      link('https://cdn.example/shoe.png', 'A red shoe'),
    ]);
  });

  it('makes a single newline a line break', () => {
    expect(parseInline('one\ntwo')).toEqual(['one', br, 'two']);
  });

  it('honours backslash escapes', () => {
    expect(parseInline('\\*not em\\* \\[x\\]')).toEqual(['*not em* [x]']);
  });

  it('keeps unclosed markup of a half-streamed reply as literal text', () => {
    for (const partial of [
      '**bold',
      'a *b',
      '[link',
      '[link](https://x.exa',
      '`code',
      '__x',
      '![alt](',
      '***',
    ]) {
      expect(textOf(parseInline(partial))).toBe(partial);
    }
    expect(parseInline('**bold')).toEqual(['**bold']);
  });

  it('never nests a link inside a link', () => {
    const tree = parseInline('[a [b](https://b.example) c](https://a.example)');
    // The inner link wins; the outer brackets stay text (its destination is then a bare URL, linked on its own).
    expect(tree).toEqual([
      '[a ',
      link('https://b.example', 'b'),
      ' c](',
      link('https://a.example', 'https://a.example'),
      ')',
    ]);
  });

  it('keeps raw HTML as text', () => {
    const hostile = '<script>alert(1)</script><img src=x onerror=alert(1)><svg onload=alert(1)>&#106;';
    expect(parseInline(hostile)).toEqual([hostile]);
  });
});

describe('parseMarkdown()', () => {
  it('splits paragraphs on blank lines and keeps single newlines as breaks', () => {
    expect(parseMarkdown('Hello\nthere\n\n\nNext')).toEqual([p('Hello', br, 'there'), p('Next')]);
  });

  it('reads unordered lists with any marker, and ordered lists with their start', () => {
    expect(parseMarkdown('- a\n* b\n+ **c**')).toEqual([
      {
        type: 'ul',
        start: 1,
        items: [{ children: ['a'] }, { children: ['b'] }, { children: [strong('c')] }],
      },
    ]);
    expect(parseMarkdown('3. three\n4) four')).toEqual([
      { type: 'ol', start: 3, items: [{ children: ['three'] }, { children: ['four'] }] },
    ]);
  });

  it('nests one level of indented items, and continues an item on an indented line', () => {
    expect(parseMarkdown('1. Shoes\n   - red\n   - blue\n     in stock\n2. Socks')).toEqual([
      {
        type: 'ol',
        start: 1,
        items: [
          {
            children: ['Shoes'],
            list: {
              type: 'ul',
              start: 1,
              items: [{ children: ['red'] }, { children: ['blue', br, 'in stock'] }],
            },
          },
          { children: ['Socks'] },
        ],
      },
    ]);
  });

  it('lets a list interrupt a paragraph and a paragraph follow a list', () => {
    expect(parseMarkdown('Options:\n- a\n- b\nAnything else?')).toEqual([
      p('Options:'),
      { type: 'ul', start: 1, items: [{ children: ['a'] }, { children: ['b'] }] },
      p('Anything else?'),
    ]);
  });

  it('starts a new list when the marker kind changes', () => {
    const blocks = parseMarkdown('- a\n1. b');
    expect(blocks.map((b) => b.type)).toEqual(['ul', 'ol']);
  });

  it('shows a heading as a strong line', () => {
    expect(parseMarkdown('## Your order\nShipped')).toEqual([
      { type: 'h', children: ['Your order'] },
      p('Shipped'),
    ]);
  });

  it('tolerates Windows line endings and trailing spaces', () => {
    expect(parseMarkdown('a  \r\nb\r\n\r\nc')).toEqual([p('a', br, 'b'), p('c')]);
  });

  it('returns no blocks for empty or blank text', () => {
    expect(parseMarkdown('')).toEqual([]);
    expect(parseMarkdown(' \n\t\n')).toEqual([]);
  });

  it('parses every prefix of a streamed reply without throwing', () => {
    const reply =
      '## Hi **Ada**\nHere are [two](https://shop.example/a) picks:\n\n1. *Trail* `shoe`\n   - __red__\n2. ![sock](https://x.example/s.png)\nhttps://shop.example/c.';
    for (let i = 0; i <= reply.length; i++) {
      const blocks: MdBlock[] = parseMarkdown(reply.slice(0, i));
      expect(Array.isArray(blocks)).toBe(true);
    }
  });
});

describe('parseMarkdown() on random input', () => {
  it('never throws, and loses no letter, on 5 000 random strings of markdown punctuation', () => {
    // A fixed-seed generator, so a failure reproduces.
    let seed = 42;
    const random = () => {
      seed = (seed * 1103515245 + 12345) % 2 ** 31;
      return seed / 2 ** 31;
    };
    const pieces = [
      '*',
      '**',
      '_',
      '__',
      '[',
      ']',
      '(',
      ')',
      '![',
      '`',
      '``',
      '\\',
      '\n',
      '\n\n',
      ' ',
      '  - ',
      '1. ',
      '# ',
      'a',
      'b1',
      'http://x.example/a',
      'h',
    ];
    for (let n = 0; n < 5000; n++) {
      let input = '';
      for (let len = Math.floor(random() * 24); len > 0; len--)
        input += pieces[Math.floor(random() * pieces.length)];
      const blocks = parseMarkdown(input);
      // Without a link destination (whose title is dropped), every letter the user typed is shown.
      const letters = (text: string) => text.replace(/[^a-z]/g, '').length;
      if (!input.includes('(')) expect(letters(textOf(blocks)), input).toBe(letters(input));
    }
  });
});

// Linear time: each of these would take minutes with a backtracking or quadratic parser; here the test finishing at
// all (under vitest's timeout) is the check, and the assertions check the result. Timing is scripts' business.
describe('parseMarkdown() on pathological input (100 KB)', () => {
  const cases: Record<string, string> = {
    stars: '*'.repeat(100_000),
    brackets: '['.repeat(100_000),
    'unclosed openers': '*a _b '.repeat(16_000),
    'link closers without openers': '](x'.repeat(33_000),
    'openers with an unterminated destination': '[a](b'.repeat(20_000),
    'backtick runs': '``a`'.repeat(25_000),
    'underscores in words': 'a_'.repeat(50_000),
    'list markers': '- '.repeat(50_000),
    'nested brackets and stars': '[*'.repeat(50_000),
    'autolink with trailing dots': `https://x.example/${'.'.repeat(100_000)}`,
    'many lines': '- a\n  - b\n'.repeat(10_000),
  };
  for (const [name, input] of Object.entries(cases)) {
    it(`keeps all the text of ${name}`, () => {
      const blocks = parseMarkdown(input);
      expect(textOf(blocks).replace(/\s/g, '').length).toBeGreaterThan(0);
    });
  }

  it('keeps 50 000 stars as one literal string', () => {
    expect(parseMarkdown('*'.repeat(50_000))).toEqual([p('*'.repeat(50_000))]);
  });

  it('keeps 50 000 brackets as one literal string', () => {
    expect(parseMarkdown('['.repeat(50_000))).toEqual([p('['.repeat(50_000))]);
  });

  it('keeps unclosed openers literal', () => {
    const input = '*a _b '.repeat(16_000).trim();
    expect(parseMarkdown(input)).toEqual([p(input)]);
  });
});

describe('parseMarkdown() and blank lines', () => {
  // <Markdown> parses each stretch between blank lines on its own (a streaming reply re-parses only its last one):
  // that is right only if a blank line ends everything, which this checks on many generated texts.
  it('parses a text to the same blocks as its stretches between blank lines, parsed one by one', () => {
    const pieces = [
      '- ',
      '  - ',
      '1. ',
      '3) ',
      '# ',
      '**',
      '_',
      '`',
      '[a](https://x.example/)',
      'word',
      ' ',
      '\n',
      '\n\n',
      '  \n',
    ];
    let seed = 42;
    const random = (n: number) => {
      seed = (seed * 1_103_515_245 + 12_345) % 2_147_483_648;
      return seed % n;
    };
    for (let run = 0; run < 2_000; run++) {
      const text = Array.from({ length: 1 + random(30) }, () => pieces[random(pieces.length)]).join('');
      expect(text.split('\n\n').flatMap(parseMarkdown), JSON.stringify(text)).toEqual(parseMarkdown(text));
    }
  });
});
