import { isDeepStrictEqual } from 'node:util';
import type { EditableWidgetSettings } from '../../protocol/widget-settings';

// Issue 22: each version says what changed from the one before, in the config file's paths, short enough for a list:
// "title; actions[1] (Order status): url, enabled; limits.openStreamsPerIp". Actions are told apart by position and
// named, since a merchant thinks of "the order status action", not of index 1; limits by their name. Any other field
// is named as a whole (a changed starter is "starters").

type Fields = Record<string, unknown>;

const changedKeys = (before: Fields, after: Fields): string[] =>
  [...new Set([...Object.keys(before), ...Object.keys(after)])].filter(
    (key) => !isDeepStrictEqual(before[key], after[key]),
  );

const actionChanges = (before: Fields[], after: Fields[]): string[] => {
  const parts: string[] = [];
  for (let i = 0; i < Math.max(before.length, after.length); i++) {
    const was = before[i];
    const is = after[i];
    if (!was) parts.push(`actions[${i}] (${String(is.name)}) added`);
    else if (!is) parts.push(`actions[${i}] (${String(was.name)}) removed`);
    else {
      const keys = changedKeys(was, is);
      if (keys.length > 0) parts.push(`actions[${i}] (${String(is.name)}): ${keys.join(', ')}`);
    }
  }
  return parts;
};

/**
 * What changed from `before` to `after`, readable; `no changes` when nothing did.
 *
 * @example
 * settingsSummary({ ...s, title: 'Help' }, s); // → 'title'
 */
export function settingsSummary(after: EditableWidgetSettings, before: EditableWidgetSettings): string {
  const parts: string[] = [];
  const a = after as unknown as Fields;
  const b = before as unknown as Fields;
  for (const key of changedKeys(b, a)) {
    if (key === 'actions')
      parts.push(...actionChanges((b.actions ?? []) as Fields[], (a.actions ?? []) as Fields[]));
    else if (key === 'limits')
      parts.push(
        ...changedKeys((b.limits ?? {}) as Fields, (a.limits ?? {}) as Fields).map((k) => `limits.${k}`),
      );
    else parts.push(key);
  }
  return parts.length > 0 ? parts.join('; ') : 'no changes';
}
