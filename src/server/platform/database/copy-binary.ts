// PostgreSQL's COPY binary format (https://www.postgresql.org/docs/current/sql-copy.html, "Binary Format"), written
// for `Db.copyFrom(..., { format: 'binary' })`: the same bytes for a server (COPY FROM STDIN) and PGlite (/dev/blob).
// Why: in text format the server parses every value's text, and a `tsvector` literal is costly to read (issue #5: at
// 100,000 products, reading the two tsvector columns was over a second of the server's time, more than everything
// else in the rows together). In binary, a tsvector is its lexemes and positions as they are stored.
//
// Each value is its 32-bit length then its bytes, in each type's send/receive format. Only the types the catalog
// writes are here; each follows the server's `*recv` function, which checks what it reads.

const SIGNATURE = Buffer.from('PGCOPY\n\xff\r\n\0', 'latin1');
/** Weights as tsvector stores them, in a position's top two bits. */
const WEIGHT = { A: 3, B: 2, C: 1, D: 0 } as const;

/** A tsvector position with its weight, as the binary format (and the stored tsvector) has it. */
export const tsPosition = (position: number, weight: keyof typeof WEIGHT): number =>
  (WEIGHT[weight] << 14) | position;
/** PostgreSQL's limits for one lexeme's positions (tsvector.h MAXNUMPOS, MAXENTRYPOS - 1). */
export const TSVECTOR_MAX_POSITIONS = 256;
export const TSVECTOR_MAX_POSITION = 16_383;
/** `numeric`'s digits are base 10,000; sign words of its binary form. */
const NUMERIC_POS = 0x0000;
const NUMERIC_NEG = 0x4000;
/** The `text` type's OID, which an array's binary form names for its elements. */
const TEXT_OID = 25;
const DECIMAL = /^(-)?(\d+)(?:\.(\d+))?$/;

/**
 * A COPY binary file built tuple by tuple in one growing buffer (outside the JS heap, as bytes, so a chunk's rows do
 * not burden the collector). Call {@link row} with the column count, then one writer per column, in order.
 *
 * @example
 * const rows = new CopyBinaryRows();
 * rows.row(2).text('p1').tsvector(new Map([['mug', [tsPosition(1, 'A')]]]));
 * await tx.copyFrom('products', ['identifier', 'search_tsv'], rows.content, { format: 'binary' });
 */
export class CopyBinaryRows {
  private bytes = Buffer.allocUnsafe(1 << 20);
  private at = 0;
  /** Tuples written. */
  count = 0;

  constructor() {
    this.bytes.set(SIGNATURE, 0);
    // Flags (no OIDs), then the length of the header extension (none).
    this.bytes.writeInt32BE(0, SIGNATURE.length);
    this.bytes.writeInt32BE(0, SIGNATURE.length + 4);
    this.at = SIGNATURE.length + 8;
  }

  /** The file so far, with the trailer: what `copyFrom` takes. */
  get content(): Uint8Array {
    this.room(2);
    this.bytes.writeInt16BE(-1, this.at);
    return this.bytes.subarray(0, this.at + 2);
  }

  /** Starts a tuple of `fields` columns. */
  row(fields: number): this {
    this.room(2);
    this.at = this.bytes.writeInt16BE(fields, this.at);
    this.count++;
    return this;
  }

  null(): this {
    this.room(4);
    this.at = this.bytes.writeInt32BE(-1, this.at);
    return this;
  }

  /** `text` (or `varchar`): its UTF-8 bytes. */
  text(value: string | null): this {
    if (value === null) return this.null();
    this.room(4 + value.length * 3);
    const length = this.bytes.write(value, this.at + 4, 'utf8');
    this.bytes.writeInt32BE(length, this.at);
    this.at += 4 + length;
    return this;
  }

  /** `jsonb` from JSON text: a version byte, then the text (the server parses it as `jsonb_in` would). */
  jsonb(json: string): this {
    this.room(5 + json.length * 3);
    this.bytes[this.at + 4] = 1;
    const length = this.bytes.write(json, this.at + 5, 'utf8');
    this.bytes.writeInt32BE(length + 1, this.at);
    this.at += 5 + length;
    return this;
  }

  /** `json` from JSON text: the text itself (the server checks it as `json_in` would, and keeps it as given). */
  json(json: string): this {
    return this.text(json);
  }

  bool(value: boolean): this {
    this.room(5);
    this.at = this.bytes.writeInt32BE(1, this.at);
    this.bytes[this.at++] = value ? 1 : 0;
    return this;
  }

  /** A one-dimensional `text[]` without NULL elements. */
  textArray(values: readonly string[]): this {
    const start = this.at;
    this.room(4 + 20);
    this.at += 4;
    // Dimensions (none for an empty array), has-nulls flag, element type; then size and lower bound per dimension.
    this.at = this.bytes.writeInt32BE(values.length === 0 ? 0 : 1, this.at);
    this.at = this.bytes.writeInt32BE(0, this.at);
    this.at = this.bytes.writeInt32BE(TEXT_OID, this.at);
    if (values.length > 0) {
      this.at = this.bytes.writeInt32BE(values.length, this.at);
      this.at = this.bytes.writeInt32BE(1, this.at);
    }
    for (const value of values) this.text(value);
    this.bytes.writeInt32BE(this.at - start - 4, start);
    return this;
  }

  /**
   * `numeric` from decimal text (`-?digits(.digits)?`, as `parsePrice` gives), or NULL. Throws on anything else, so a
   * value that the text format would have refused is refused here too.
   */
  numeric(decimal: string | null): this {
    if (decimal === null) return this.null();
    const match = DECIMAL.exec(decimal);
    if (!match) throw new Error(`copy: not a decimal number: ${JSON.stringify(decimal)}`);
    const [, minus, whole, fraction = ''] = match;
    // Base-10,000 digits around the decimal point: the whole part padded on the left, the fraction on the right.
    const wholeDigits = whole.replace(/^0+/, '');
    const left = wholeDigits.padStart(Math.ceil(wholeDigits.length / 4) * 4, '0');
    const right = fraction.padEnd(Math.ceil(fraction.length / 4) * 4, '0');
    const digits: number[] = [];
    for (let i = 0; i < left.length; i += 4) digits.push(Number(left.slice(i, i + 4)));
    for (let i = 0; i < right.length; i += 4) digits.push(Number(right.slice(i, i + 4)));
    let weight = left.length / 4 - 1;
    // No leading or trailing zero digits, as the server stores it (zero is no digits at all).
    let first = 0;
    while (first < digits.length && digits[first] === 0) {
      first++;
      weight--;
    }
    let last = digits.length;
    while (last > first && digits[last - 1] === 0) last--;
    const kept = digits.slice(first, last);
    if (kept.length === 0) weight = 0;
    this.room(4 + 8 + kept.length * 2);
    this.at = this.bytes.writeInt32BE(8 + kept.length * 2, this.at);
    this.at = this.bytes.writeInt16BE(kept.length, this.at);
    this.at = this.bytes.writeInt16BE(weight, this.at);
    this.at = this.bytes.writeUInt16BE(minus && kept.length > 0 ? NUMERIC_NEG : NUMERIC_POS, this.at);
    this.at = this.bytes.writeInt16BE(fraction.length, this.at);
    for (const digit of kept) this.at = this.bytes.writeInt16BE(digit, this.at);
    return this;
  }

  /**
   * `tsvector` from distinct lexemes (free of NUL) and their positions, each a {@link tsPosition}, ascending, at most
   * {@link TSVECTOR_MAX_POSITIONS} of them. Lexemes in any order: the server sorts them (sorting them here instead
   * cost Node more time than it saved the server, issue #5).
   */
  tsvector(lexemes: ReadonlyMap<string, readonly number[]>): this {
    const start = this.openValue(lexemes.size);
    for (const [lexeme, positions] of lexemes) {
      this.lexeme(lexeme, positions.length);
      for (const position of positions) this.at = this.bytes.writeUInt16BE(position, this.at);
    }
    this.bytes.writeInt32BE(this.at - start - 4, start);
    return this;
  }

  /** `tsvector` of distinct lexemes without positions (as `strip()` leaves one). */
  lexemes(lexemes: readonly string[]): this {
    const start = this.openValue(lexemes.length);
    for (const lexeme of lexemes) this.lexeme(lexeme, 0);
    this.bytes.writeInt32BE(this.at - start - 4, start);
    return this;
  }

  /** Room for the length (filled in by the caller) and a count; returns where the length goes. */
  private openValue(count: number): number {
    this.room(8);
    const start = this.at;
    this.bytes.writeInt32BE(count, start + 4);
    this.at += 8;
    return start;
  }

  /** A lexeme as a C string, its position count, and room for its positions. */
  private lexeme(lexeme: string, positions: number): void {
    this.room(lexeme.length * 3 + 3 + positions * 2);
    // Lexemes are short words, mostly ASCII: copied here they cost less than a call into Buffer.write each.
    const bytes = this.bytes;
    let at = this.at;
    for (let i = 0; i < lexeme.length; i++) {
      const code = lexeme.charCodeAt(i);
      if (code >= 0x80) {
        at = this.at + bytes.write(lexeme, this.at, 'utf8');
        break;
      }
      bytes[at++] = code;
    }
    bytes[at++] = 0;
    this.at = at;
    this.at = this.bytes.writeUInt16BE(positions, this.at);
  }

  private room(bytes: number): void {
    if (this.at + bytes <= this.bytes.length) return;
    const grown = Buffer.allocUnsafe(Math.max(this.bytes.length * 2, this.at + bytes));
    this.bytes.copy(grown, 0, 0, this.at);
    this.bytes = grown;
  }
}
