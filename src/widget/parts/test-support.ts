// Shared by the parts' tests: what "rendered as inert text" means for a host page.
import { expect } from 'vitest';

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

/** No element a string could smuggle in, no event-handler attribute, and every href a web, mail or phone URL. */
export function expectInert(root: Element): void {
  expect(
    root.querySelectorAll(
      'script, img:not([src^="https://"]):not([src^="http://"]), svg, iframe, object, embed, style, form',
    ),
  ).toHaveLength(0);
  for (const el of root.querySelectorAll('*')) {
    for (const attr of el.getAttributeNames()) expect(attr).not.toMatch(/^on/i);
    const href = el.getAttribute('href');
    if (href !== null) expect(href).toMatch(/^(https?:\/\/|mailto:|tel:)/);
  }
}
