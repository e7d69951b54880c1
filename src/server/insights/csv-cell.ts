// One cell of the insights' CSV (RFC 4180). Written by hand rather than with csv-stringify: quoting is four lines,
// and a library would be one more runtime package every installation of the service must have (its runtime is
// optional peer dependencies, platform/runtime-packages.ts), while the part that matters here it lacks: a shopper's
// words opened in a spreadsheet must never run as a formula (OWASP "CSV injection"), so a text cell starting with
// `=`, `+`, `-`, `@`, a tab or a carriage return gets a leading `'`.

const FORMULA_START = /^[=+\-@\t\r]/;
const NEEDS_QUOTES = /[",\r\n]/;

/** A value as one CSV cell: null is empty, numbers as written, text guarded and quoted when it must be. */
export function csvCell(value: string | number | null): string {
  if (value === null) return '';
  if (typeof value === 'number') return String(value);
  const text = FORMULA_START.test(value) ? `'${value}` : value;
  return NEEDS_QUOTES.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

/** A CSV line of cells, ending in CRLF as RFC 4180 has it. */
export const csvLine = (cells: readonly (string | number | null)[]): string =>
  `${cells.map(csvCell).join(',')}\r\n`;
