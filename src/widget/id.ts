/** A random id for client-side records (`clientMessageId`); `randomUUID` needs a secure context, hence the fallback. */
export const createId = (): string => {
  if (typeof crypto.randomUUID === 'function') {
    try {
      return crypto.randomUUID();
    } catch {
      // Insecure context in some engines: fall through.
    }
  }
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return Array.from(bytes, (byte) => byte.toString(16).padStart(2, '0')).join('');
};
