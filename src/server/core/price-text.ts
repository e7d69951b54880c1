// The number a price text holds, read the same way for a catalog's prices (catalog/store/product-row.ts) and for
// the prices a shopper writes (engine/local/shopper-constraints.ts): "1.299,00" and "1,299.00" are one price.

/**
 * The number in a price text, as decimal text: "89.95", "19,90 €", "$1,299.00", "1.299,00" → "89.95", "19.90",
 * "1299.00", "1299.00". The last `.` or `,` is the decimal mark when 1 or 2 digits follow it, else a thousands mark.
 * Null when there is no number.
 */
export function parsePrice(price: string | undefined): string | null {
  if (typeof price !== 'string') return null;
  const match = price.match(/-?\d[\d.,\s']*/);
  if (!match) return null;
  const raw = match[0].replace(/[\s']/g, '').replace(/[.,]+$/, '');
  const lastMark = Math.max(raw.lastIndexOf('.'), raw.lastIndexOf(','));
  let text: string;
  if (lastMark >= 0 && raw.length - lastMark - 1 <= 2) {
    text = `${raw.slice(0, lastMark).replace(/[.,]/g, '')}.${raw.slice(lastMark + 1)}`;
  } else {
    text = raw.replace(/[.,]/g, '');
  }
  return /^-?\d+(?:\.\d+)?$/.test(text) && Number.isFinite(Number(text)) ? text : null;
}

/**
 * An amount in a currency as `locale` writes it: "€169.00" in "en", "169,00 €" in "de-DE". Null when `currency` is not
 * a three-letter code Intl knows, so that each caller keeps its own fallback (the bare number, the feed's own text).
 *
 * @example
 * formatMoney(169, 'eur', 'en'); // → '€169.00'
 * formatMoney(169, 'XYZW', 'en'); // → null
 */
export function formatMoney(amount: number, currency: string, locale: string): string | null {
  if (!/^[A-Za-z]{3}$/.test(currency)) return null;
  try {
    return new Intl.NumberFormat(locale, { style: 'currency', currency: currency.toUpperCase() }).format(
      amount,
    );
  } catch {
    // Not a currency Intl knows.
    return null;
  }
}
