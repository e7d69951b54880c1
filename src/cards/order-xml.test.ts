// @vitest-environment node
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import {
  ORDER_XML_MAX_DEPTH,
  ORDER_XML_MAX_ELEMENTS,
  ORDER_XML_MAX_LENGTH,
  parseOrderXml,
} from './order-xml';

const fixtureXml = readFileSync(new URL('./fixtures/order.xml', import.meta.url), 'utf8');
const fixtureJson: unknown = JSON.parse(
  readFileSync(new URL('./fixtures/order.json', import.meta.url), 'utf8'),
);

const STEP = '<step><label>Ordered</label><status>completed</status></step>';
/** A minimal order document whose `customer_name` holds `inner` as written. */
const order = (inner: string) =>
  `<order><order_id_value>A-1</order_id_value><timeline>${STEP}</timeline><customer_name>${inner}</customer_name></order>`;

const parsedOf = (xml: string) => {
  const result = parseOrderXml(xml);
  if (!result.ok) throw new Error(`expected the XML to parse, got: ${result.error}`);
  return result.value;
};
const errorOf = (xml: string) => {
  const result = parseOrderXml(xml);
  if (result.ok) throw new Error('expected the XML to be refused');
  return result.error;
};
const nameOf = (xml: string) => parsedOf(order(xml)).customer_name;

describe('parseOrderXml()', () => {
  describe('mapping', () => {
    it('maps the SPEC-shaped fixture to exactly the JSON fixture', () => {
      expect(parsedOf(fixtureXml)).toEqual(fixtureJson);
    });

    it('maps child elements to keys and leaf elements to their trimmed text', () => {
      expect(parsedOf(order('\n   Camille Dupont \t'))).toEqual({
        order_id_value: 'A-1',
        timeline: { step: [{ label: 'Ordered', status: 'completed' }] },
        customer_name: 'Camille Dupont',
      });
    });

    it('makes timeline.step and items.item arrays even with a single child', () => {
      const value = parsedOf(
        `<order><timeline>${STEP}</timeline><items><item><name>Mug</name></item></items></order>`,
      );
      expect(value.timeline).toEqual({ step: [{ label: 'Ordered', status: 'completed' }] });
      expect(value.items).toEqual({ item: [{ name: 'Mug' }] });
    });

    it('maps an empty <timeline/> and <items></items> to empty lists', () => {
      expect(parsedOf('<order><timeline/><items></items></order>')).toEqual({
        timeline: { step: [] },
        items: { item: [] },
      });
    });

    it('maps empty leaf elements to an empty string', () => {
      expect(parsedOf('<order><customer_name/><total_amount></total_amount></order>')).toEqual({
        customer_name: '',
        total_amount: '',
      });
    });

    it('parses attributes and ignores them', () => {
      expect(
        parsedOf(`<order id="7" xmlns:x='urn:x'><total_amount currency = "EUR" >9 €</total_amount></order>`),
      ).toEqual({
        total_amount: '9 €',
      });
    });

    it('refuses a repeated field outside the timeline and items lists', () => {
      expect(
        errorOf('<order><customer_name>A</customer_name><customer_name>B</customer_name></order>'),
      ).toMatch(/<customer_name> appears twice in <order> \(line 1, column 40\)/);
    });

    it('refuses text mixed with elements', () => {
      expect(errorOf('<order>note<customer_name>A</customer_name></order>')).toMatch(
        /<order> mixes text with elements/,
      );
      expect(errorOf('<order><timeline>soon</timeline></order>')).toMatch(
        /<timeline> must hold elements, not text/,
      );
      expect(errorOf('<order>A-1</order>')).toMatch(/<order> must hold elements, not text/);
    });

    it('makes an element named __proto__ an own key that pollutes nothing', () => {
      const value = parsedOf(
        '<order><__proto__><polluted>yes</polluted></__proto__><constructor>x</constructor></order>',
      );
      expect(Object.hasOwn(value, '__proto__')).toBe(true);
      expect(Object.getPrototypeOf(value)).toBe(Object.prototype);
      expect(({} as Record<string, unknown>).polluted).toBeUndefined();
      expect(value.constructor).toBe('x');
      expect(Object.constructor).toBe(Function);
    });
  });

  describe('syntax', () => {
    it('accepts a leading XML declaration, a BOM, comments and whitespace around the root', () => {
      const xml = `\uFEFF<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<!-- a -->\n${order('A')}\n<!-- b -->\n`;
      expect(parsedOf(xml).customer_name).toBe('A');
    });

    it('accepts comments between and inside elements', () => {
      expect(nameOf('Cam<!-- <b>not markup</b> & not an entity -->ille')).toBe('Camille');
    });

    it('keeps CDATA content literally, markup and ampersands included', () => {
      expect(nameOf('<![CDATA[<script>alert("x") && 1</script>]]>')).toBe('<script>alert("x") && 1</script>');
      expect(nameOf('A <![CDATA[&amp;]]> B')).toBe('A &amp; B');
    });

    it('decodes the five predefined entities', () => {
      expect(nameOf('&lt;b&gt; &amp; &quot;q&quot; &apos;a&apos;')).toBe(`<b> & "q" 'a'`);
    });

    it('decodes decimal and hexadecimal character references', () => {
      expect(nameOf('&#8364; &#x20AC; &#x20ac; &#128512; &#x1F600; &#9;')).toBe('€ € € 😀 😀');
      expect(nameOf('a&#10;b')).toBe('a\nb');
    });

    it.each([
      '&#0;',
      '&#x0;',
      '&#1;',
      '&#x1F;',
      '&#xD800;',
      '&#xDFFF;',
      '&#xFFFE;',
      '&#xFFFF;',
      '&#x110000;',
      '&#99999999;',
    ])('refuses the character reference %s to an invalid code point', (ref) => {
      expect(errorOf(order(ref))).toMatch(/is not a valid XML character|&" must start/);
    });

    it.each(['&#;', '&#x;', '&#12a;', '&#xG1;', '&# 65;'])(
      'refuses the malformed character reference %s',
      (ref) => {
        expect(errorOf(order(ref))).toMatch(/malformed character reference|&" must start/);
      },
    );

    it.each(['&unknown;', '&nbsp;', '&xxe;', '&lol9;', '&LT;', '&__proto__;', '&constructor;'])(
      'refuses the named entity %s',
      (ref) => {
        expect(errorOf(order(ref))).toMatch(/unknown entity/);
      },
    );

    it.each(['a & b', 'a &amp b', '&'])('refuses a bare ampersand in %j', (text) => {
      expect(errorOf(order(text))).toMatch(/"&" must start an entity reference/);
    });

    it('refuses an unknown entity inside an ignored attribute too', () => {
      expect(errorOf('<order note="&xxe;"></order>')).toMatch(/unknown entity &xxe;/);
    });

    it.each([
      ['an unquoted attribute value', '<order id=7></order>'],
      ['"<" in an attribute value', '<order id="<x>"></order>'],
      ['an unterminated attribute value', '<order id="7></order>'],
      ['an attribute without value', '<order checked></order>'],
      ['attributes without whitespace between them', '<order a="1"b="2"></order>'],
    ])('refuses %s', (_name, xml) => {
      expect(parseOrderXml(xml).ok).toBe(false);
    });

    it.each([
      ['an unclosed root', '<order><customer_name>A</customer_name>', /<order> is not closed/],
      ['an unclosed child', '<order><customer_name>A</order>', /<\/order> does not close <customer_name>/],
      ['a mismatched end tag', '<order><a>x</b></order>', /<\/b> does not close <a>/],
      ['an end tag alone', '</order>', /expected the root element|expected an element name/],
      ['an unterminated start tag', '<order', /unterminated start tag/],
      ['an unterminated comment', '<order><!-- x </order>', /unterminated comment/],
      ['an unterminated CDATA section', '<order><![CDATA[x</order>', /unterminated CDATA/],
      ['an unterminated declaration', '<?xml version="1.0"', /unterminated XML declaration/],
      ['a second root', '<order></order><order></order>', /content after the root element/],
      ['text after the root', '<order></order>trailing', /content after the root element/],
      ['text before the root', 'hello <order></order>', /expected the root element/],
      ['an empty document', '', /no root element/],
      ['whitespace only', '  \n ', /no root element/],
      ['a tag without name', '<order>< a/></order>', /expected an element name/],
    ])('refuses %s', (_name, xml, message) => {
      expect(errorOf(xml)).toMatch(message);
    });

    it('says where the error is, by line and column', () => {
      expect(errorOf('<order>\n  <a>&bogus;</a>\n</order>')).toMatch(
        /unknown entity &bogus;.*\(line 2, column 6\)/,
      );
    });

    it('refuses a NUL or other forbidden control character', () => {
      expect(errorOf(order('A\u0000B'))).toMatch(/character U\+0000 is not allowed/);
      expect(errorOf(order('A\u001bB'))).toMatch(/U\+001B/);
    });
  });

  describe('the root element', () => {
    it.each(['orders', 'Order', 'invoice', 'ns:order', 'html'])('refuses the root <%s>', (root) => {
      expect(errorOf(`<${root}><order_id_value>A</order_id_value></${root}>`)).toMatch(
        /the root element must be <order>/,
      );
    });

    it('accepts a self-closing root (then toOrderCard finds it empty)', () => {
      expect(parsedOf('<order/>')).toEqual({});
    });
  });

  describe('hostile documents', () => {
    it('refuses a DOCTYPE with an external entity (XXE)', () => {
      const xml = `<?xml version="1.0"?>\n<!DOCTYPE order [<!ENTITY xxe SYSTEM "file:///etc/passwd">]>\n${order('&xxe;')}`;
      expect(errorOf(xml)).toMatch(/DOCTYPE declarations are not allowed/);
    });

    it('refuses a DOCTYPE with a public external DTD, in any case', () => {
      expect(errorOf('<!doctype order SYSTEM "http://evil.example/x.dtd"><order/>')).toMatch(/DOCTYPE/);
    });

    it('refuses billion laughs before expanding anything', () => {
      const entities = Array.from(
        { length: 9 },
        (_, i) => `<!ENTITY lol${i + 1} "${`&lol${i};`.repeat(10)}">`,
      ).join('\n');
      const xml = `<?xml version="1.0"?>\n<!DOCTYPE lolz [\n<!ENTITY lol0 "lol">\n${entities}\n]>\n<order>&lol9;</order>`;
      const started = performance.now();
      expect(errorOf(xml)).toMatch(/DOCTYPE declarations are not allowed/);
      expect(performance.now() - started).toBeLessThan(50);
    });

    it('refuses an external entity reference with no DOCTYPE', () => {
      expect(errorOf(order('&xxe;'))).toMatch(/unknown entity &xxe;/);
    });

    it('refuses an ENTITY or other declaration inside the document', () => {
      expect(errorOf('<order><!ENTITY x "y"></order>')).toMatch(/ENTITY declarations are not allowed/);
      expect(errorOf('<order><!ELEMENT order ANY></order>')).toMatch(/markup declarations/);
      expect(errorOf('<!ATTLIST order id CDATA #IMPLIED><order/>')).toMatch(/markup declarations/);
    });

    it('refuses processing instructions other than the leading declaration', () => {
      expect(errorOf('<?xml version="1.0"?><?xml-stylesheet href="x.xsl"?><order/>')).toMatch(
        /processing instructions are not allowed/,
      );
      expect(errorOf('<order><?php system("id"); ?></order>')).toMatch(/processing instructions/);
      expect(errorOf('<!-- first --><?xml version="1.0"?><order/>')).toMatch(/processing instructions/);
      expect(errorOf('<order/><?pi?>')).toMatch(/processing instructions/);
    });

    it(`accepts nesting of ORDER_XML_MAX_DEPTH (${ORDER_XML_MAX_DEPTH}) levels and refuses one more`, () => {
      const nest = (levels: number) =>
        `<order>${'<a>'.repeat(levels - 1)}x${'</a>'.repeat(levels - 1)}</order>`;
      expect(parseOrderXml(nest(ORDER_XML_MAX_DEPTH)).ok).toBe(true);
      expect(errorOf(nest(ORDER_XML_MAX_DEPTH + 1))).toMatch(/nested deeper than 16 levels/);
    });

    it('refuses 10,000-deep nesting quickly and without a stack overflow', () => {
      const xml = `<order>${'<a>'.repeat(10_000)}${'</a>'.repeat(10_000)}</order>`;
      const started = performance.now();
      expect(errorOf(xml)).toMatch(/nested deeper than 16 levels/);
      expect(performance.now() - started).toBeLessThan(50);
    });

    it(`accepts ORDER_XML_MAX_ELEMENTS (${ORDER_XML_MAX_ELEMENTS}) elements and refuses one more`, () => {
      const items = (count: number) => `<order><items>${'<item/>'.repeat(count)}</items></order>`;
      const atLimit = parsedOf(items(ORDER_XML_MAX_ELEMENTS - 2));
      expect((atLimit.items as { item: unknown[] }).item).toHaveLength(1998);
      expect(errorOf(items(ORDER_XML_MAX_ELEMENTS - 1))).toMatch(/more than 2000 elements/);
    });

    it(`refuses input longer than ORDER_XML_MAX_LENGTH (${ORDER_XML_MAX_LENGTH}) characters before parsing`, () => {
      const filler = `<!--${'x'.repeat(ORDER_XML_MAX_LENGTH)}-->`;
      expect(errorOf(`${filler}<order/>`)).toBe('XML is longer than 100000 characters');
      const exact = `<order>${' '.repeat(ORDER_XML_MAX_LENGTH - 15)}</order>`;
      expect(exact).toHaveLength(ORDER_XML_MAX_LENGTH);
      expect(parseOrderXml(exact).ok).toBe(true);
    });

    it('keeps script in text and CDATA as plain strings', () => {
      expect(nameOf('&lt;img src=x onerror=alert(1)&gt;')).toBe('<img src=x onerror=alert(1)>');
      expect(nameOf('<![CDATA[<script>alert(1)</script>]]>')).toBe('<script>alert(1)</script>');
    });

    it('refuses markup elements inside a leaf instead of treating them as text', () => {
      expect(errorOf(order('<script>alert(1)</script>A'))).toMatch(
        /<customer_name> mixes text with elements/,
      );
    });

    it('returns an error, never throws, for a non-string input', () => {
      expect(parseOrderXml(42 as unknown as string)).toEqual({ ok: false, error: 'XML must be a string' });
    });
  });
});
