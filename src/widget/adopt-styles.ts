import { LOADER_MARK_ATTR } from '../protocol';

/**
 * Constructable stylesheets: no `<style>` element, so a page whose CSP is `style-src 'self'` shows no violation.
 * Browsers without them (Safari < 16.4) get a `<style>` carrying the loader script's nonce, when there is one.
 * Adds to what the root has: the widget's own sheet first, then each lazy part's as its chunk arrives.
 */
export function adoptStyles(root: ShadowRoot, css: string): void {
  if (
    'adoptedStyleSheets' in root &&
    typeof CSSStyleSheet === 'function' &&
    'replaceSync' in CSSStyleSheet.prototype
  ) {
    const sheet = new CSSStyleSheet();
    sheet.replaceSync(css);
    root.adoptedStyleSheets = [...root.adoptedStyleSheets, sheet];
    return;
  }
  const style = document.createElement('style');
  const nonce = document.querySelector<HTMLScriptElement>(`script[${LOADER_MARK_ATTR}]`)?.nonce;
  if (nonce) style.nonce = nonce;
  style.textContent = css;
  root.append(style);
}
