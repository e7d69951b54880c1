// Shared by the parts' tests: what "rendered as inert text" means for a host page.
import { expect } from 'vitest';

export { HOSTILE_STRINGS, HOSTILE_URLS, WRONG_TYPES } from '../../cards/hostile-strings';

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
