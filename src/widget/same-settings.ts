/**
 * Whether two settings objects are deep-equal: plain objects key by key, anything else (callbacks, elements) by
 * identity. Tells a second `load()` with the same settings (no warning) from one with other settings.
 */
export const isSameSettings = (a: unknown, b: unknown): boolean =>
  a === b ||
  (isPlain(a) &&
    isPlain(b) &&
    Object.keys(a).length === Object.keys(b).length &&
    Object.keys(a).every((key) => isSameSettings(a[key], b[key])));

const isPlain = (value: unknown): value is Record<string, unknown> =>
  (value as object | undefined)?.constructor === Object;
