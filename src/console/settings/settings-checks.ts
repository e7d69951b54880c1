import { CHOICE_TEXT_MAX } from '../../protocol/chat';
import { STARTERS_MAX } from '../../protocol/widget-config';
import type { ActionSettings, EditableWidgetSettings } from '../../protocol/widget-settings';
import {
  KNOWLEDGE_SECTIONS_LIMIT,
  SETTINGS_TEXT_MAX,
  WEBHOOK_VERSIONS,
} from '../../protocol/widget-settings-fields';
import { AA_CONTRAST, contrastRatio, isHexColor } from './contrast';

// What the console can tell as the merchant types, at the config file's paths, so a message sits beside its field
// before the service is asked. The service's validator stays the judge (its `invalid_settings` issues are shown the
// same way); these mirror its rules, and add the URL placeholder checks the parameter editor needs.

export interface Check {
  path: string;
  message: string;
  /** An error keeps the save button from sending; a warning only informs. */
  level: 'error' | 'warning';
}

/** `{name}`: any non-empty text between braces, as the service reads an action's URL. */
const PLACEHOLDER = /\{([^{}]+)\}/g;
const IDENTIFIER = /^[A-Za-z_][A-Za-z0-9_]{0,63}$/;

/** The placeholders of an action's URL, in order, each once. */
export function placeholdersOf(url: string): string[] {
  return [...new Set([...url.matchAll(PLACEHOLDER)].map((m) => m[1]))];
}

export function httpUrlProblem(value: string): string | null {
  if (!value.trim()) return 'Enter a URL.';
  // Placeholders are filled before the call; checked here as a value would stand in for them.
  const filled = value.replace(PLACEHOLDER, 'x');
  try {
    const url = new URL(filled);
    if (url.protocol !== 'http:' && url.protocol !== 'https:') return 'Use an http:// or https:// URL.';
    return null;
  } catch {
    return 'Enter an absolute URL, like https://shop.example/api/orders.';
  }
}

const tooLong = (value: string, max: number) =>
  value.length > max ? `At most ${max} characters (now ${value.length}).` : null;

/** The URL's placeholders against the action's parameters: which placeholder is unknown, which parameter unused. */
export function actionUrlChecks(action: ActionSettings, base: string): Check[] {
  const checks: Check[] = [];
  const names = new Set((action.parameters ?? []).map((p) => p.name));
  const used = placeholdersOf(action.url);
  const unknown = used.filter((name) => !names.has(name));
  if (unknown.length > 0)
    checks.push({
      path: `${base}.url`,
      level: 'error',
      message: `${unknown.map((n) => `{${n}}`).join(', ')} ${unknown.length === 1 ? 'is not a parameter' : 'are not parameters'}: add ${unknown.length === 1 ? 'a parameter with that name' : 'parameters with those names'} or change the URL.`,
    });
  const authorityEnd = action.url.indexOf('/', action.url.indexOf('//') + 2);
  const first = action.url.search(/\{[^{}]+\}/);
  if (first !== -1 && (authorityEnd === -1 || first < authorityEnd))
    checks.push({
      path: `${base}.url`,
      level: 'error',
      message: 'Placeholders may only stand in the path or the query, not in the host.',
    });
  if ((action.method ?? 'POST') === 'GET')
    (action.parameters ?? []).forEach((p, j) => {
      // A name that is not one yet gets its own error instead.
      if (IDENTIFIER.test(p.name) && !used.includes(p.name))
        checks.push({
          path: `${base}.parameters[${j}].name`,
          level: 'warning',
          message: `{${p.name}} is not in the URL: this GET sends it as a query parameter (?${p.name}=…).`,
        });
    });
  return checks;
}

function actionChecks(
  action: ActionSettings,
  i: number,
  all: ActionSettings[],
  hasIdentity: boolean,
): Check[] {
  const base = `actions[${i}]`;
  const checks: Check[] = [];
  const add = (path: string, message: string | null, level: Check['level'] = 'error') => {
    if (message) checks.push({ path: `${base}${path}`, message, level });
  };
  add(
    '.name',
    action.name.trim() ? tooLong(action.name, SETTINGS_TEXT_MAX.actionName) : 'Give the action a name.',
  );
  if (action.name.trim() && all.findIndex((a) => a.name.trim() === action.name.trim()) < i)
    add('.name', 'Another action has this name; the assistant tells them apart by name.');
  add('.description', tooLong(action.description ?? '', SETTINGS_TEXT_MAX.actionDescription));
  add('.url', httpUrlProblem(action.url));
  checks.push(...actionUrlChecks(action, base));
  if (action.requiresIdentity && !hasIdentity)
    add(
      '.requiresIdentity',
      "Needs the widget's identity verification (identity.secretEnv in the config file); without it nobody could be verified.",
    );
  const seen = new Set<string>();
  (action.parameters ?? []).forEach((p, j) => {
    if (!IDENTIFIER.test(p.name))
      add(
        `.parameters[${j}].name`,
        p.name ? 'Letters, digits and _ only, not starting with a digit.' : 'Give the parameter a name.',
      );
    else if (seen.has(p.name)) add(`.parameters[${j}].name`, 'Another parameter has this name.');
    seen.add(p.name);
  });
  return checks;
}

/** Every check the console makes on the working copy, in the order of the editors. */
export function checkSettings(s: EditableWidgetSettings): Check[] {
  const checks: Check[] = [];
  const add = (path: string, message: string | null, level: Check['level'] = 'error') => {
    if (message) checks.push({ path, message, level });
  };
  if (s.title !== undefined) add('title', tooLong(s.title, SETTINGS_TEXT_MAX.title));
  if (s.greeting !== undefined) add('greeting', tooLong(s.greeting, SETTINGS_TEXT_MAX.greeting));
  if (s.themeColor !== undefined) {
    if (!isHexColor(s.themeColor)) add('themeColor', 'Enter a hex colour like #1f6feb.');
    else {
      const ratio = contrastRatio('#ffffff', s.themeColor) ?? 21;
      if (ratio < AA_CONTRAST)
        add(
          'themeColor',
          `White text on this colour has a contrast of ${ratio.toFixed(2)}:1, below the ${AA_CONTRAST}:1 that WCAG AA asks for; the launcher and the header use white on it. Choose a darker colour.`,
          'warning',
        );
    }
  }
  const starters = s.starters ?? [];
  if (starters.length > STARTERS_MAX) add('starters', `At most ${STARTERS_MAX} starters.`);
  starters.forEach((text, i) => {
    add(
      `starters[${i}]`,
      text.trim() ? tooLong(text, CHOICE_TEXT_MAX) : 'Write the question, or remove the starter.',
    );
    if (text.trim() && starters.findIndex((t) => t.trim() === text.trim()) < i)
      add(`starters[${i}]`, 'The same starter is listed twice.');
  });
  if (s.instructions !== undefined)
    add('instructions', tooLong(s.instructions, SETTINGS_TEXT_MAX.instructions));
  const knowledge = s.knowledge ?? [];
  if (knowledge.length > KNOWLEDGE_SECTIONS_LIMIT)
    add('knowledge', `At most ${KNOWLEDGE_SECTIONS_LIMIT} sections.`);
  knowledge.forEach((section, i) => {
    add(
      `knowledge[${i}].title`,
      section.title.trim()
        ? tooLong(section.title, SETTINGS_TEXT_MAX.knowledgeTitle)
        : 'Give the section a title.',
    );
    add(
      `knowledge[${i}].text`,
      section.text.trim()
        ? tooLong(section.text, SETTINGS_TEXT_MAX.knowledgeText)
        : 'Write the section’s text.',
    );
  });
  const urls = s.knowledgeUrls ?? [];
  urls.forEach((url, i) => {
    add(`knowledgeUrls[${i}]`, httpUrlProblem(url));
    if (url.trim() && urls.indexOf(url) < i) add(`knowledgeUrls[${i}]`, 'This URL is listed twice.');
  });
  const actions = s.actions ?? [];
  actions.forEach((action, i) => {
    checks.push(...actionChecks(action, i, actions, s.identity !== undefined));
  });
  (s.webhooks ?? []).forEach((hook, i) => {
    add(`webhooks[${i}].url`, httpUrlProblem(hook.url));
    if (!WEBHOOK_VERSIONS.includes(hook.version))
      add(
        `webhooks[${i}].version`,
        `Choose one of the versions this service speaks: ${WEBHOOK_VERSIONS.join(', ')}.`,
      );
  });
  for (const [name, value] of Object.entries(s.limits ?? {}))
    if (value !== undefined && !(Number.isInteger(value) && value >= 1))
      add(`limits.${name}`, 'A whole number, at least 1.');
  return checks;
}
