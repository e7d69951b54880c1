// @vitest-environment node
import { describe, expect, it } from 'vitest';
import {
  LIMIT_DEFAULTS,
  PRESENTATION_DEFAULTS,
  SETTINGS_TEXT_MAX,
  WEBHOOK_VERSIONS,
} from '../../protocol/widget-settings-fields';
import { parseConfig } from './service-config';
import { WEBHOOK_VERSION_NAMES } from './webhook-versions';

// The console restates the config file's defaults and limits (it cannot import the service); these fail when the
// service's validator changes and the console's copy does not.

const widget = (over: Record<string, unknown> = {}) =>
  parseConfig({ adminKey: 'admin-key-123456', widgets: [{ id: 'w', allowedOrigins: ['*'], ...over }] });

const parsedWidget = (over: Record<string, unknown> = {}) => {
  const r = widget(over);
  if (!r.ok) throw new Error(r.error);
  return r.value.widgets[0];
};

describe('widget settings fields', () => {
  it('lists the webhook versions the service speaks', () => {
    expect(WEBHOOK_VERSIONS).toEqual(WEBHOOK_VERSION_NAMES);
  });

  it("states each limit's default as the config file applies it", () => {
    const limits = parsedWidget().limits as Record<string, number | undefined>;
    for (const [name, value] of Object.entries(LIMIT_DEFAULTS))
      expect(limits[name] ?? null, name).toBe(value);
    // Every limit the config knows is listed: a limit it does not know is refused.
    expect(Object.keys(LIMIT_DEFAULTS).sort()).toEqual(
      Object.keys({ ...limits, messagesPerDay: null }).sort(),
    );
  });

  it('states the presentation defaults', () => {
    const w = parsedWidget();
    for (const [name, value] of Object.entries(PRESENTATION_DEFAULTS))
      expect((w as Record<string, unknown>)[name], name).toBe(value);
  });

  it('states the text limits: at the limit accepted, one more refused', () => {
    const cases: [keyof typeof SETTINGS_TEXT_MAX, (s: string) => Record<string, unknown>][] = [
      ['title', (s) => ({ title: s })],
      ['greeting', (s) => ({ greeting: s })],
      ['instructions', (s) => ({ instructions: s })],
      ['knowledgeTitle', (s) => ({ knowledge: [{ title: s, text: 'x' }] })],
      ['knowledgeText', (s) => ({ knowledge: [{ title: 'x', text: s }] })],
      ['actionName', (s) => ({ actions: [{ name: s, url: 'https://a.example/' }] })],
      ['actionDescription', (s) => ({ actions: [{ name: 'a', description: s, url: 'https://a.example/' }] })],
    ];
    for (const [name, make] of cases) {
      const max = SETTINGS_TEXT_MAX[name];
      expect(widget(make('a'.repeat(max))).ok, name).toBe(true);
      expect(widget(make('a'.repeat(max + 1))).ok, name).toBe(false);
    }
  });
});
