// Issue 33: the address a shopper leaves for an agent's reply. It goes into an email's `To:` header, so it is held to
// the plain form every mail server takes (RFC 5321's dot-atom local part, a host name with a dot) and nothing a header
// could be split with: no line breaks, spaces, quotes, commas or angle brackets, one `@`. Quoted local parts and
// address literals are refused: shoppers do not type them, and they are where header tricks hide.

const LOCAL = /^[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]+(?:\.[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]+)*$/;
const LABEL = /^(?!-)[A-Za-z0-9-]{1,63}(?<!-)$/;

/** RFC 5321's limits: 64 for the local part, 254 for the whole path the server takes. */
export const CONTACT_EMAIL_MAX = 254;

/**
 * The address to store (its domain in lower case), or null when it is not one we send to.
 *
 * @example
 * contactAddress(' Ann.Lee@Example.COM ') // → 'Ann.Lee@example.com'
 * contactAddress('ann@example.com\r\nBcc: x@evil.example') // → null
 */
export function contactAddress(raw: string): string | null {
  const address = raw.trim();
  if (address.length === 0 || address.length > CONTACT_EMAIL_MAX) return null;
  const at = address.lastIndexOf('@');
  if (at <= 0 || address.indexOf('@') !== at) return null;
  const local = address.slice(0, at);
  const domain = address.slice(at + 1).toLowerCase();
  if (local.length > 64 || !LOCAL.test(local)) return null;
  const labels = domain.split('.');
  if (labels.length < 2 || !labels.every((label) => LABEL.test(label))) return null;
  // A top-level domain is never all digits (that would be an address like 10.0.0.1).
  if (/^\d+$/.test(labels.at(-1)!)) return null;
  return `${local}@${domain}`;
}
