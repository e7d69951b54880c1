// Test support, not part of the package: the project's hostile-string corpus, shared by the card tests of the service
// (src/cards, src/server) and of the widget (src/widget/parts), so both sides are tried with the same attacks.

/** Hostile strings from the usual XSS lists: each must show up as text and change nothing else. */
export const HOSTILE_STRINGS = [
  '<script>alert(1)</script>',
  '<img src=x onerror=alert(1)>',
  '"><svg onload=alert(1)>',
  "'><iframe src=javascript:alert(1)>",
  '<a href="javascript:alert(1)">x</a>',
  '&lt;b&gt; &#106;avascript: &amp;',
  '{{constructor.constructor("alert(1)")()}}',
  '\u202eevil\u202c',
];

/** Link and picture addresses a card must never carry into an `href` or `src` (each is left out). */
export const HOSTILE_URLS = [
  'javascript:alert(1)',
  ' JaVaScRiPt:alert(1)',
  'java\tscript:alert(1)',
  '\u0000javascript:alert(1)',
  'data:text/html,<script>alert(1)</script>',
  'data:image/svg+xml,<svg onload=alert(1)>',
  'vbscript:msgbox(1)',
  '//evil.example/x',
  '/p/42',
  'https://shop.example@evil.example/',
];

/** Values of a wrong type for any card field: each is left out, and none shows up as JSON text. */
export const WRONG_TYPES: unknown[] = [
  null,
  true,
  {},
  { amount: 1 },
  [],
  ['https://shop.example/'],
  Number.NaN,
];
