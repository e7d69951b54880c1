import { err, ok, type Result } from '../protocol/result';

/** Longer input is refused before any parsing. */
export const ORDER_XML_MAX_LENGTH = 100_000;
/** Deepest element nesting accepted (`<order>` is depth 1; a SPEC order needs 3). */
export const ORDER_XML_MAX_DEPTH = 16;
/** Most elements a document may hold (a full order with 100 items holds about 550). */
export const ORDER_XML_MAX_ELEMENTS = 2_000;

/** Elements whose children of one name always become an array, even when there is only one. */
const LIST_ELEMENTS: ReadonlyMap<string, string> = new Map([
  ['timeline', 'step'],
  ['items', 'item'],
]);

const PREDEFINED_ENTITIES: ReadonlyMap<string, string> = new Map([
  ['lt', '<'],
  ['gt', '>'],
  ['amp', '&'],
  ['quot', '"'],
  ['apos', "'"],
]);

// XML 1.0 `Char` excludes these; they never belong in a document (a NUL byte is a smuggling attempt, not an order).
// biome-ignore lint/suspicious/noControlCharactersInRegex: matching control characters is the point.
const INVALID_CHAR = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\ufffe\uffff]/;
const NAME = /[A-Za-z_:\u00c0-\uffff][A-Za-z0-9_.:\u00b7\u00c0-\uffff-]*/y;
const WHITESPACE = /[ \t\r\n]*/y;

interface XmlElement {
  name: string;
  /** Offset of the `<` of its start tag, for error messages. */
  start: number;
  children: XmlElement[];
  /** Character data and CDATA, entities decoded. */
  text: string;
}

class XmlError extends Error {}

/**
 * Parses SPEC's XML order document (`<order>` root, children named like the JSON fields) into the JSON shape that
 * `toOrderCard` validates. Hand-written and deliberately small: there is no DTD, so nothing can expand or fetch.
 *
 * Accepted: an optional leading `<?xml …?>` declaration, comments, CDATA, whitespace, elements, text, attributes
 * (parsed, then ignored), the five predefined entities and numeric character references to valid XML characters.
 * Refused with an error: `<!DOCTYPE` and every other `<!` declaration (so `<!ENTITY`, XXE and billion laughs),
 * any other entity (`&xxe;`), processing instructions, more than {@link ORDER_XML_MAX_LENGTH} characters, nesting
 * deeper than {@link ORDER_XML_MAX_DEPTH}, more than {@link ORDER_XML_MAX_ELEMENTS} elements, mismatched or unclosed
 * tags, text mixed with elements, a repeated field, and a root other than `<order>`.
 *
 * Mapping: each child element becomes a key; an element without child elements becomes its trimmed text;
 * `<timeline>` becomes `{ step: [...] }` and `<items>` becomes `{ item: [...] }`, arrays even for one child.
 *
 * @example
 * parseOrderXml('<order><order_id_value>A-1</order_id_value><timeline><step><label>Paid</label>' +
 *   '<status>completed</status></step></timeline></order>');
 * // → { ok: true, value: { order_id_value: 'A-1', timeline: { step: [{ label: 'Paid', status: 'completed' }] } } }
 */
export function parseOrderXml(text: string): Result<Record<string, unknown>, string> {
  if (typeof text !== 'string') return err('XML must be a string');
  if (text.length > ORDER_XML_MAX_LENGTH) {
    return err(`XML is longer than ${ORDER_XML_MAX_LENGTH} characters`);
  }
  try {
    const root = new Parser(text).parseDocument();
    if (root.name !== 'order') {
      throw syntaxError(text, `the root element must be <order>, not <${clip(root.name)}>`, root.start);
    }
    return ok(toObject(text, root));
  } catch (error) {
    return err(error instanceof XmlError ? error.message : 'XML could not be parsed');
  }
}

class Parser {
  private pos = 0;
  private elements = 0;

  constructor(private readonly src: string) {}

  parseDocument(): XmlElement {
    const { src } = this;
    const bad = INVALID_CHAR.exec(src);
    if (bad) {
      const code = bad[0].charCodeAt(0).toString(16).toUpperCase().padStart(4, '0');
      this.fail(`character U+${code} is not allowed in XML`, bad.index);
    }
    if (src.charCodeAt(0) === 0xfeff) this.pos = 1;
    this.skipWhitespace();
    if (/^<\?xml[ \t\r\n?]/.test(src.slice(this.pos, this.pos + 6))) {
      const end = src.indexOf('?>', this.pos);
      if (end < 0) this.fail('unterminated XML declaration');
      this.pos = end + 2;
    }
    this.skipMisc();
    if (src[this.pos] !== '<')
      this.fail(this.pos >= src.length ? 'no root element' : 'expected the root element');
    const root = this.parseElement();
    this.skipMisc();
    if (this.pos < src.length) this.fail('content after the root element');
    return root;
  }

  /** Whitespace and comments between the declaration, the root element and the end. */
  private skipMisc(): void {
    for (;;) {
      this.skipWhitespace();
      if (this.src.startsWith('<!--', this.pos)) this.skipComment();
      else if (this.src.startsWith('<!', this.pos) || this.src.startsWith('<?', this.pos))
        this.refuseMarkup();
      else return;
    }
  }

  /** The root and everything inside it, without recursion: depth is capped, but a loop cannot overflow anyway. */
  private parseElement(): XmlElement {
    const { src } = this;
    const stack: XmlElement[] = [];
    let root: XmlElement | undefined;
    for (;;) {
      // At the `<` of a start tag.
      const start = this.pos;
      this.pos += 1;
      const name = this.readName('an element name');
      if (stack.length + 1 > ORDER_XML_MAX_DEPTH) {
        this.fail(`elements are nested deeper than ${ORDER_XML_MAX_DEPTH} levels`, start);
      }
      this.elements += 1;
      if (this.elements > ORDER_XML_MAX_ELEMENTS) {
        this.fail(`the document holds more than ${ORDER_XML_MAX_ELEMENTS} elements`, start);
      }
      const selfClosing = this.readAttributes();
      const element: XmlElement = { name, start, children: [], text: '' };
      const parent = stack[stack.length - 1];
      if (parent) parent.children.push(element);
      else root = element;
      if (!selfClosing) stack.push(element);
      else if (!parent) return element;

      // Content, until the next start tag (continue the outer loop) or the end of the root (return).
      for (;;) {
        const top = stack[stack.length - 1]!;
        const lt = src.indexOf('<', this.pos);
        if (lt < 0) this.fail(`<${clip(top.name)}> is not closed`, top.start);
        top.text += this.decode(src.slice(this.pos, lt), this.pos);
        this.pos = lt;
        if (src.startsWith('</', lt)) {
          this.pos += 2;
          const closing = this.readName('an element name');
          this.skipWhitespace();
          if (src[this.pos] !== '>') this.fail(`expected ">" to end </${clip(closing)}>`);
          if (closing !== top.name) {
            this.fail(`</${clip(closing)}> does not close <${clip(top.name)}>`, lt);
          }
          this.pos += 1;
          stack.pop();
          if (stack.length === 0) return root!;
        } else if (src.startsWith('<!--', lt)) {
          this.skipComment();
        } else if (src.startsWith('<![CDATA[', lt)) {
          const end = src.indexOf(']]>', lt + 9);
          if (end < 0) this.fail('unterminated CDATA section');
          top.text += src.slice(lt + 9, end);
          this.pos = end + 3;
        } else if (src.startsWith('<!', lt) || src.startsWith('<?', lt)) {
          this.refuseMarkup();
        } else {
          break;
        }
      }
    }
  }

  /** Reads attributes up to `>` or `/>`, validating them, and returns whether the tag closes itself. */
  private readAttributes(): boolean {
    const { src } = this;
    for (;;) {
      const spaced = this.skipWhitespace();
      if (src[this.pos] === '>') {
        this.pos += 1;
        return false;
      }
      if (src.startsWith('/>', this.pos)) {
        this.pos += 2;
        return true;
      }
      if (this.pos >= src.length) this.fail('unterminated start tag');
      if (!spaced) this.fail('expected whitespace, ">" or "/>" in a start tag');
      this.readName('an attribute name');
      this.skipWhitespace();
      if (src[this.pos] !== '=') this.fail('expected "=" after an attribute name');
      this.pos += 1;
      this.skipWhitespace();
      const quote = src[this.pos];
      if (quote !== '"' && quote !== "'") this.fail('an attribute value must be quoted');
      const end = src.indexOf(quote, this.pos + 1);
      if (end < 0) this.fail('unterminated attribute value');
      const value = src.slice(this.pos + 1, end);
      if (value.includes('<')) this.fail('"<" is not allowed in an attribute value');
      this.decode(value, this.pos + 1); // Attributes are ignored, but their entities are held to the same rules.
      this.pos = end + 1;
    }
  }

  private readName(what: string): string {
    NAME.lastIndex = this.pos;
    const match = NAME.exec(this.src);
    if (!match) this.fail(`expected ${what}`);
    this.pos += match[0].length;
    return match[0];
  }

  /** Returns whether any whitespace was skipped. */
  private skipWhitespace(): boolean {
    WHITESPACE.lastIndex = this.pos;
    const length = WHITESPACE.exec(this.src)![0].length;
    this.pos += length;
    return length > 0;
  }

  private skipComment(): void {
    const end = this.src.indexOf('-->', this.pos + 4);
    if (end < 0) this.fail('unterminated comment');
    this.pos = end + 3;
  }

  /** At `<!` (not a comment or CDATA) or `<?`: every such construct is refused, with a message naming it. */
  private refuseMarkup(): never {
    const head = this.src.slice(this.pos, this.pos + 9).toUpperCase();
    if (head.startsWith('<!DOCTYPE')) {
      this.fail(
        'DOCTYPE declarations are not allowed (no DTD, no entity definitions, no external references)',
      );
    }
    if (head.startsWith('<!ENTITY')) this.fail('ENTITY declarations are not allowed');
    if (head.startsWith('<?')) {
      this.fail('processing instructions are not allowed (only a leading <?xml …?> declaration)');
    }
    this.fail('markup declarations ("<!") are not allowed');
  }

  /** Decodes the five predefined entities and numeric character references; refuses everything else. */
  private decode(raw: string, offset: number): string {
    if (!raw.includes('&')) return raw;
    let out = '';
    let from = 0;
    for (let amp = raw.indexOf('&'); amp >= 0; amp = raw.indexOf('&', from)) {
      out += raw.slice(from, amp);
      const semi = raw.indexOf(';', amp + 1);
      const ref = semi < 0 ? '' : raw.slice(amp + 1, semi);
      if (semi < 0 || ref === '' || ref.length > 32) {
        this.fail('"&" must start an entity reference such as &amp;', offset + amp);
      }
      out += this.resolveReference(ref, offset + amp);
      from = semi + 1;
    }
    return out + raw.slice(from);
  }

  private resolveReference(ref: string, at: number): string {
    if (ref[0] !== '#') {
      const value = PREDEFINED_ENTITIES.get(ref);
      if (value === undefined) {
        this.fail(
          `unknown entity &${clip(ref)}; (only &lt; &gt; &amp; &quot; &apos; and numeric references are allowed)`,
          at,
        );
      }
      return value;
    }
    const hex = ref[1] === 'x';
    const digits = ref.slice(hex ? 2 : 1);
    if (!(hex ? /^[0-9a-fA-F]+$/ : /^[0-9]+$/).test(digits))
      this.fail(`malformed character reference &${ref};`, at);
    const code = Number.parseInt(digits, hex ? 16 : 10);
    const valid =
      code === 0x9 ||
      code === 0xa ||
      code === 0xd ||
      (code >= 0x20 && code <= 0xd7ff) ||
      (code >= 0xe000 && code <= 0xfffd) ||
      (code >= 0x10000 && code <= 0x10ffff);
    if (!valid) this.fail(`character reference &${ref}; is not a valid XML character`, at);
    return String.fromCodePoint(code);
  }

  private fail(message: string, at = this.pos): never {
    throw syntaxError(this.src, message, at);
  }
}

/** An element with child elements, as an object; `<timeline>` and `<items>` get their list even when empty. */
function toObject(src: string, element: XmlElement): Record<string, unknown> {
  if (element.text.trim() !== '') {
    const problem = element.children.length > 0 ? 'mixes text with elements' : 'must hold elements, not text';
    throw syntaxError(src, `<${clip(element.name)}> ${problem}`, element.start);
  }
  const object: Record<string, unknown> = {};
  const listName = LIST_ELEMENTS.get(element.name);
  const list: unknown[] = [];
  const seen = new Set<string>();
  if (listName !== undefined) define(object, listName, list);
  for (const child of element.children) {
    const isObject = child.children.length > 0 || LIST_ELEMENTS.has(child.name);
    const value = isObject ? toObject(src, child) : child.text.trim();
    if (child.name === listName) {
      list.push(value);
    } else if (seen.has(child.name)) {
      throw syntaxError(src, `<${clip(child.name)}> appears twice in <${clip(element.name)}>`, child.start);
    } else {
      seen.add(child.name);
      define(object, child.name, value);
    }
  }
  return object;
}

/** An own, enumerable data property, as JSON.parse makes: `<__proto__>` can never reach a prototype. */
function define(object: Record<string, unknown>, key: string, value: unknown): void {
  Object.defineProperty(object, key, { value, enumerable: true, writable: true, configurable: true });
}

function syntaxError(src: string, message: string, at: number): XmlError {
  const before = src.slice(0, at);
  const line = before.split('\n').length;
  const column = at - before.lastIndexOf('\n');
  return new XmlError(`${message} (line ${line}, column ${column})`);
}

function clip(text: string): string {
  return text.length > 40 ? `${text.slice(0, 40)}…` : text;
}
