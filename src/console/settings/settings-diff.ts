import type { EditableWidgetSettings } from '../../protocol/widget-settings';

// A version against the one before, field by field, for a merchant to read: "Action 2 “Order status” · URL: … → …".
// Both versions come whole from the service (`GET …/settings/versions/{version}`); the comparison is the console's.

export interface SettingsChange {
  /** The config file's path of the field: `actions[1].url`. */
  path: string;
  /** The same, in words: `Action 2 “Order status” · URL`. */
  label: string;
  /** `undefined`: the field was not set (its default applied). */
  before: unknown;
  after: unknown;
}

const FIELD_LABELS: Record<string, string> = {
  allowedOrigins: 'Allowed origins',
  title: 'Title',
  greeting: 'Greeting',
  themeColor: 'Theme colour',
  themeMode: 'Theme mode',
  launcherPosition: 'Launcher position',
  linkTarget: 'Link target',
  hideUrls: 'Hidden on pages',
  cart: 'Cart',
  starters: 'Starter',
  instructions: 'Instructions',
  knowledge: 'Knowledge section',
  knowledgeUrls: 'Knowledge URL',
  actions: 'Action',
  webhooks: 'Webhook',
  feeds: 'Feed',
  limits: 'Limits',
  businessHours: 'Business hours',
  retentionDays: 'Retention days',
  signingSecretEnv: 'Signing secret variable',
  identity: 'Identity',
  name: 'name',
  description: 'description',
  method: 'method',
  url: 'URL',
  parameters: 'parameter',
  enabled: 'enabled',
  confirm: 'asks the shopper first',
  requiresIdentity: 'requires a verified shopper',
  type: 'type',
  required: 'required',
  text: 'text',
  version: 'version',
};

type Leaf = string | number | boolean | null;

/** Every leaf of a value, by path; empty lists and objects count as absent (the default applies either way). */
function flatten(value: unknown, path: string, into: Map<string, Leaf>): void {
  if (Array.isArray(value)) {
    value.forEach((item, i) => {
      flatten(item, `${path}[${i}]`, into);
    });
  } else if (value !== null && typeof value === 'object') {
    for (const [key, item] of Object.entries(value)) flatten(item, path ? `${path}.${key}` : key, into);
  } else if (value !== undefined) {
    into.set(path, value as Leaf);
  }
}

/** The path in words, naming list items by their number and, where they have one, their title or name. */
export function labelOf(path: string, within: EditableWidgetSettings): string {
  const parts: string[] = [];
  let cursor: unknown = within;
  for (const match of path.matchAll(/([A-Za-z_]\w*)|\[(\d+)\]/g)) {
    if (match[1] !== undefined) {
      const key = match[1];
      parts.push(FIELD_LABELS[key] ?? key);
      cursor = (cursor as Record<string, unknown> | undefined)?.[key];
    } else {
      const index = Number(match[2]);
      cursor = (cursor as unknown[] | undefined)?.[index];
      const item = cursor as { name?: unknown; title?: unknown } | undefined;
      const name =
        typeof item?.name === 'string' ? item.name : typeof item?.title === 'string' ? item.title : '';
      parts[parts.length - 1] += ` ${index + 1}${name ? ` “${name}”` : ''}`;
    }
  }
  // "Limits · openStreamsPerIp", "Action 2 “Order status” · URL".
  return parts.join(' · ');
}

/** What changed from `before` to `after`, in the order of the fields of `after` then those only `before` has. */
export function diffSettings(
  before: EditableWidgetSettings | null,
  after: EditableWidgetSettings,
): SettingsChange[] {
  const a = new Map<string, Leaf>();
  const b = new Map<string, Leaf>();
  if (before) flatten(before, '', a);
  flatten(after, '', b);
  const changes: SettingsChange[] = [];
  for (const [path, value] of b)
    if (!a.has(path) || a.get(path) !== value)
      changes.push({ path, label: labelOf(path, after), before: a.get(path), after: value });
  for (const [path, value] of a)
    if (!b.has(path))
      changes.push({ path, label: labelOf(path, before ?? after), before: value, after: undefined });
  return changes;
}
