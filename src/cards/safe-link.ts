/**
 * The `href` to use for a URL from model text or a card, or `undefined` when it must render as plain text. Checked on
 * the parsed URL, never on the string: `new URL()` strips the leading spaces, tabs and newlines that hide
 * ` JaVaScRiPt:` or `java\tscript:`, and lower-cases the scheme, so only the protocol it really has is compared. The
 * returned value is the URL's serialisation, so what goes into the DOM is exactly what was checked.
 *
 * Relative URLs are refused (no base): model text has no meaningful base (the shop's page or the service?), catalog
 * and card URLs are absolute, and an entity-encoded scheme like `&#106;avascript:` is then simply not a URL. Credentials
 * (`https://shop.example@evil.example`) are refused too: they only serve to make a link read as another site.
 *
 * @example
 * safeHref('https://shop.example/p/42'); // 'https://shop.example/p/42'
 * safeHref('mailto:help@shop.example'); // 'mailto:help@shop.example'
 * safeHref('mailto:help@shop.example', true); // undefined: cards link to http(s) only
 * safeHref(' JaVaScRiPt:alert(1)'); // undefined
 */
export function safeHref(raw: string | undefined, httpOnly?: boolean): string | undefined {
  try {
    // A string only: `new URL()` would make one of anything (`["https://…"]`), and a card's field is text or nothing.
    const url = new URL(typeof raw === 'string' ? raw : '');
    const p = url.protocol;
    if (
      (p === 'https:' || p === 'http:' || (!httpOnly && (p === 'mailto:' || p === 'tel:'))) &&
      !url.username &&
      !url.password
    )
      return url.href;
  } catch {}
  return undefined;
}
