// An incremental reader for a feed's top-level JSON array, so a 100,000-product feed is never held whole: each element
// is sliced out as soon as its closing byte arrives and parsed on its own with JSON.parse.
//
// It works on bytes, not text: every byte JSON's structure depends on (quotes, backslash, brackets, comma, colon,
// whitespace) is ASCII, and no byte of a multi-byte UTF-8 character is below 0x80, so a chunk boundary inside a
// character, a string or an escape changes nothing. An element's bytes are decoded once, when it is complete.

/** An element of the array: parsed, or refused on its own (too large, nested too deep) while the feed goes on. */
export type StreamedItem = { index: number; value: unknown } | { index: number; error: string };

export interface JsonArrayStreamOptions {
  /** An element larger than this (bytes of its JSON text) is refused as an item; default 1 MiB. */
  maxItemBytes?: number;
  /** An element nested deeper than this (the element itself is level 1) is refused as an item; default 64. */
  maxDepth?: number;
  /**
   * Also accept an object at the top level whose member of one of these names is the array (the third-party feed's
   * `{ "Timestamp": ..., "Products": [...] }`). Other members are checked to be valid JSON and ignored.
   */
  wrapperKeys?: readonly string[];
}

/** The document cannot be used at all: not JSON, cut short, or not an array. The whole feed fails. */
export class JsonStreamError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'JsonStreamError';
  }
}

export const DEFAULT_MAX_ITEM_BYTES = 1024 * 1024;
export const DEFAULT_MAX_DEPTH = 64;
/** A wrapper member's name is never a document in itself. */
const MAX_KEY_BYTES = 4096;

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const COMMA = 0x2c;
const COLON = 0x3a;
const OPEN_ARRAY = 0x5b;
const CLOSE_ARRAY = 0x5d;
const OPEN_OBJECT = 0x7b;
const CLOSE_OBJECT = 0x7d;
const BOM = [0xef, 0xbb, 0xbf];
/** First bytes of a JSON value that is not an array: a string, an object, a number, true, false, null. */
const STARTS_A_VALUE = new Set([
  0x22, 0x7b, 0x2d, 0x30, 0x31, 0x32, 0x33, 0x34, 0x35, 0x36, 0x37, 0x38, 0x39, 0x74, 0x66, 0x6e,
]);
const isSpace = (b: number): boolean => b === 0x20 || b === 0x0a || b === 0x0d || b === 0x09;

type State =
  /** Before the document; a UTF-8 BOM is skipped. */
  | 'start'
  /** In the array, after `[` or `,`: whitespace, then an element (or `]` right after `[`). */
  | 'array-before-item'
  /** In the wrapper, after `{` or `,`: whitespace, then a member name (or `}` right after `{`). */
  | 'object-before-key'
  | 'object-key'
  | 'object-before-colon'
  /** After `:`: whitespace, then the value; the products member's `[` opens the array. */
  | 'object-before-value'
  /** After the products array's `]`: whitespace, then `,` or `}`. */
  | 'object-after-array'
  /** Inside an element (or a wrapper member's value) until `,` or the enclosing closer at its own level. */
  | 'value'
  /** After the whole document: whitespace only. */
  | 'done';

/**
 * A push parser: {@link JsonArrayScanner.push} each chunk as it arrives and get back the elements it completed,
 * then {@link JsonArrayScanner.end}. Throws {@link JsonStreamError} as soon as the document is known to be unusable.
 * Elements that fail JSON.parse make the document malformed (the whole feed fails); an element refused for its size
 * or depth is skipped by its structure (strings, escapes and brackets are still tracked, its tokens are not parsed).
 */
export class JsonArrayScanner {
  private readonly maxItemBytes: number;
  private readonly maxDepth: number;
  private readonly wrapperKeys: ReadonlySet<string>;
  private state: State = 'start';
  /** Bytes seen before the current chunk: positions in messages are absolute. */
  private offset = 0;
  private bomBytes = 0;

  // The array.
  private inWrapper = false;
  private arrayDone = false;
  private nextIndex = 0;
  /** After `[` or `,` nothing but whitespace yet: `]` is fine only right after `[`. */
  private afterComma = false;

  // The wrapper object.
  private keyParts: Buffer[] = [];
  private keyBytes = 0;
  private key = '';
  private afterMemberComma = false;

  // The current value (an array element, or a wrapper member's value that is validated and dropped).
  private isItem = false;
  /** The closer that ends the value at its own level: `]` for elements, `}` for wrapper members. */
  private closer = CLOSE_ARRAY;
  private parts: Buffer[] = [];
  private size = 0;
  private tooLarge = false;
  private tooDeep = false;
  /** Openers of the value's containers, innermost last, up to maxDepth; deeper levels are only counted. */
  private stack: number[] = [];
  private depth = 0;
  private inString = false;
  private escaped = false;
  /** A container at the value's own level closed: only whitespace may follow before `,` or the closer. */
  private closedTop = false;
  private hasContent = false;

  constructor(options: JsonArrayStreamOptions = {}) {
    this.maxItemBytes = options.maxItemBytes ?? DEFAULT_MAX_ITEM_BYTES;
    this.maxDepth = options.maxDepth ?? DEFAULT_MAX_DEPTH;
    this.wrapperKeys = new Set(options.wrapperKeys ?? []);
  }

  /** Feeds the next chunk; returns the elements completed in it, in order. */
  push(chunk: Uint8Array): StreamedItem[] {
    const buf = Buffer.isBuffer(chunk)
      ? chunk
      : Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength);
    const out: StreamedItem[] = [];
    let i = 0;
    // Where the current value (or key) began in this chunk; -1 when none is open.
    let from = this.state === 'value' || this.state === 'object-key' ? 0 : -1;
    const n = buf.length;
    while (i < n) {
      const b = buf[i];
      switch (this.state) {
        case 'start': {
          // A UTF-8 BOM is not JSON, but some servers send one; it is skipped at the very start only.
          const position = this.offset + i;
          if (position < 3 && b === BOM[position] && (position === 0 || this.bomBytes === position)) {
            this.bomBytes++;
            break;
          }
          if (this.bomBytes > 0 && this.bomBytes < 3) this.malformed(i, b);
          if (isSpace(b)) break;
          if (b === OPEN_ARRAY) {
            this.state = 'array-before-item';
            this.afterComma = false;
          } else if (b === OPEN_OBJECT && this.wrapperKeys.size > 0) {
            this.state = 'object-before-key';
            this.afterMemberComma = false;
          } else if (STARTS_A_VALUE.has(b)) throw new JsonStreamError(this.notAnArray());
          else this.malformed(i, b);
          break;
        }
        case 'array-before-item': {
          if (isSpace(b)) break;
          if (b === CLOSE_ARRAY && !this.afterComma) {
            this.closeArray();
            break;
          }
          if (b === COMMA || b === CLOSE_ARRAY || b === CLOSE_OBJECT || b === COLON) this.malformed(i, b);
          this.openValue(true, CLOSE_ARRAY);
          from = i;
          // Re-read this byte as the value's first.
          continue;
        }
        case 'object-before-key': {
          if (isSpace(b)) break;
          if (b === CLOSE_OBJECT && !this.afterMemberComma) {
            this.closeWrapper();
            break;
          }
          if (b !== QUOTE) this.malformed(i, b);
          this.state = 'object-key';
          this.keyParts = [];
          this.keyBytes = 0;
          this.escaped = false;
          from = i;
          break;
        }
        case 'object-key': {
          if (this.escaped) this.escaped = false;
          else if (b === BACKSLASH) this.escaped = true;
          else if (b === QUOTE) {
            this.keyParts.push(buf.subarray(from, i + 1));
            from = -1;
            this.key = this.parse(Buffer.concat(this.keyParts).toString('utf8'), i) as string;
            this.keyParts = [];
            this.state = 'object-before-colon';
          }
          break;
        }
        case 'object-before-colon': {
          if (isSpace(b)) break;
          if (b !== COLON) this.malformed(i, b);
          this.state = 'object-before-value';
          break;
        }
        case 'object-before-value': {
          if (isSpace(b)) break;
          if (b === OPEN_ARRAY && this.wrapperKeys.has(this.key)) {
            if (this.arrayDone)
              throw new JsonStreamError(
                `the feed lists its products twice ("${this.key}" at byte ${this.at(i)})`,
              );
            this.inWrapper = true;
            this.state = 'array-before-item';
            this.afterComma = false;
            break;
          }
          if (b === COMMA || b === CLOSE_ARRAY || b === CLOSE_OBJECT || b === COLON) this.malformed(i, b);
          this.openValue(false, CLOSE_OBJECT);
          from = i;
          continue;
        }
        case 'value': {
          if (this.inString) {
            if (this.escaped) this.escaped = false;
            else if (b === BACKSLASH) this.escaped = true;
            else if (b === QUOTE) this.inString = false;
            else {
              // Most of a feed is the plain bytes of strings: skipped in a tight loop up to the next quote or
              // backslash, which the next turn reads.
              let j = i + 1;
              while (j < n && buf[j] !== QUOTE && buf[j] !== BACKSLASH) j++;
              i = j;
              continue;
            }
            break;
          }
          if (this.depth === 0 && (b === COMMA || b === this.closer)) {
            this.closeValue(buf, from, i, out);
            from = -1;
            if (b === COMMA) {
              if (this.isItem) {
                this.state = 'array-before-item';
                this.afterComma = true;
              } else {
                this.state = 'object-before-key';
                this.afterMemberComma = true;
              }
            } else if (this.isItem) this.closeArray();
            else this.closeWrapper();
            break;
          }
          if (isSpace(b)) break;
          if (this.closedTop) this.malformed(i, b);
          this.hasContent = true;
          if (b === QUOTE) this.inString = true;
          else if (b === OPEN_ARRAY || b === OPEN_OBJECT) {
            this.depth++;
            if (this.depth <= this.maxDepth) this.stack.push(b);
            else this.tooDeep = true;
          } else if (b === CLOSE_ARRAY || b === CLOSE_OBJECT) {
            if (this.depth === 0) this.malformed(i, b);
            if (this.depth <= this.maxDepth) {
              const opener = this.stack.pop();
              if ((opener === OPEN_ARRAY) !== (b === CLOSE_ARRAY)) this.malformed(i, b);
            }
            this.depth--;
            if (this.depth === 0) this.closedTop = true;
          } else if (b === COMMA || b === COLON) {
            if (this.depth === 0) this.malformed(i, b);
          }
          break;
        }
        case 'object-after-array': {
          if (isSpace(b)) break;
          if (b === COMMA) {
            this.state = 'object-before-key';
            this.afterMemberComma = true;
          } else if (b === CLOSE_OBJECT) this.closeWrapper();
          else this.malformed(i, b);
          break;
        }
        case 'done': {
          if (!isSpace(b)) this.malformed(i, b);
          break;
        }
      }
      i++;
    }
    // Keep the open value's (or key's) bytes of this chunk, unless the value is already refused for its size.
    if (from !== -1) {
      if (this.state === 'object-key') {
        this.keyBytes += n - from;
        if (this.keyBytes > MAX_KEY_BYTES)
          throw new JsonStreamError(
            `a member name longer than ${MAX_KEY_BYTES} bytes at byte ${this.offset + n}`,
          );
        this.keyParts.push(buf.subarray(from));
      } else if (this.state === 'value') this.keep(buf.subarray(from));
    }
    this.offset += n;
    return out;
  }

  /** The input is over: throws unless the document was complete. */
  end(): void {
    if (this.state === 'done') return;
    if (this.state === 'start' && this.offset === 0) throw new JsonStreamError('the feed is empty');
    throw new JsonStreamError(`the feed stops after ${this.offset} bytes, before its JSON is complete`);
  }

  private openValue(isItem: boolean, closer: number): void {
    this.state = 'value';
    this.isItem = isItem;
    this.closer = closer;
    this.parts = [];
    this.size = 0;
    this.tooLarge = false;
    this.tooDeep = false;
    this.stack = [];
    this.depth = 0;
    this.inString = false;
    this.escaped = false;
    this.closedTop = false;
    this.hasContent = false;
  }

  private keep(part: Buffer): void {
    if (this.tooLarge) return;
    this.size += part.length;
    if (this.size > this.maxItemBytes) {
      // Refused: its bytes are dropped at once, the scan goes on to find where it ends.
      this.tooLarge = true;
      this.parts = [];
      return;
    }
    this.parts.push(part);
  }

  private closeValue(buf: Buffer, from: number, i: number, out: StreamedItem[]): void {
    if (!this.hasContent) this.malformed(i, buf[i]);
    this.keep(buf.subarray(from, i));
    const index = this.isItem ? this.nextIndex++ : -1;
    let item: StreamedItem | undefined;
    if (this.tooLarge) item = { index, error: `item is larger than ${this.maxItemBytes} bytes` };
    else if (this.tooDeep) item = { index, error: `item is nested deeper than ${this.maxDepth} levels` };
    else {
      const text = (this.parts.length === 1 ? this.parts[0] : Buffer.concat(this.parts)).toString('utf8');
      // A wrapper member (Timestamp, ...) is parsed only to prove the document is JSON, then dropped.
      const value = this.parse(text, i);
      if (this.isItem) item = { index, value };
    }
    this.parts = [];
    if (item && this.isItem) out.push(item);
  }

  private closeArray(): void {
    this.arrayDone = true;
    this.state = this.inWrapper ? 'object-after-array' : 'done';
    this.inWrapper = false;
  }

  private closeWrapper(): void {
    if (!this.arrayDone) throw new JsonStreamError(this.notAnArray());
    this.state = 'done';
  }

  private parse(text: string, i: number): unknown {
    try {
      return JSON.parse(text);
    } catch (error) {
      throw new JsonStreamError(
        `the feed is not valid JSON (${(error as Error).message}, in the value ending at byte ${this.at(i)})`,
      );
    }
  }

  private notAnArray(): string {
    return this.wrapperKeys.size > 0
      ? 'feed must be an array or an object with Products'
      : 'feed must be a JSON array';
  }

  private at(i: number): number {
    return this.offset + i;
  }

  private malformed(i: number, b: number): never {
    const shown = b >= 0x20 && b < 0x7f ? `"${String.fromCharCode(b)}"` : `byte 0x${b.toString(16)}`;
    throw new JsonStreamError(`the feed is not valid JSON (unexpected ${shown} at byte ${this.at(i)})`);
  }
}

/**
 * The elements of a top-level JSON array read from a stream of chunks, each yielded as soon as it is complete.
 * Throws {@link JsonStreamError} when the document is malformed, cut short or not an array (or, with `wrapperKeys`,
 * an object without such a member); errors of the source (a failed download) pass through unchanged.
 *
 * @example
 * for await (const item of streamJsonArray(response.body, { wrapperKeys: ['products', 'Products'] })) {
 *   if ('error' in item) report(item.index, item.error);
 *   else use(item.index, item.value);
 * }
 */
export async function* streamJsonArray(
  source: AsyncIterable<Uint8Array | string>,
  options: JsonArrayStreamOptions = {},
): AsyncGenerator<StreamedItem, void, undefined> {
  const scanner = new JsonArrayScanner(options);
  for await (const chunk of source) {
    yield* scanner.push(typeof chunk === 'string' ? Buffer.from(chunk, 'utf8') : chunk);
  }
  scanner.end();
}
