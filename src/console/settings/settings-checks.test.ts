import { describe, expect, it } from 'vitest';
import type { ActionSettings, EditableWidgetSettings } from '../../protocol/widget-settings';
import { checkSettings, placeholdersOf } from './settings-checks';

const base: EditableWidgetSettings = { allowedOrigins: ['*'] };
const action = (over: Partial<ActionSettings>): ActionSettings => ({
  name: 'Order status',
  method: 'GET',
  url: 'https://shop.example/api/orders/{orderId}',
  parameters: [{ name: 'orderId', type: 'string' }],
  ...over,
});
const at = (s: EditableWidgetSettings, path: string) => checkSettings(s).filter((c) => c.path === path);

describe('checkSettings: the URL placeholders against the parameters', () => {
  it('finds nothing when every placeholder is a parameter and every GET parameter is in the URL', () => {
    expect(checkSettings({ ...base, actions: [action({})] })).toEqual([]);
  });

  it('names each unknown placeholder at actions[i].url', () => {
    const s = { ...base, actions: [action({}), action({ url: 'https://shop.example/o/{id}?size={size}' })] };
    const [issue] = at(s, 'actions[1].url');
    expect(issue.level).toBe('error');
    expect(issue.message).toContain('{id}, {size} are not parameters');
    expect(at(s, 'actions[0].url')).toEqual([]);
  });

  it('says which parameter a GET URL does not use, as a warning at its name', () => {
    const s = {
      ...base,
      actions: [
        action({
          parameters: [
            { name: 'orderId', type: 'string' },
            { name: 'email', type: 'string' },
          ],
        }),
      ],
    };
    const [issue] = at(s, 'actions[0].parameters[1].name');
    expect(issue).toMatchObject({ level: 'warning' });
    expect(issue.message).toContain('{email} is not in the URL');
    // A POST sends it in the body: nothing to say.
    expect(
      checkSettings({ ...base, actions: [{ ...s.actions[0], method: 'POST' }] }).filter(
        (c) => c.level === 'warning',
      ),
    ).toEqual([]);
  });

  it('refuses a placeholder in the host, a bad parameter name and a duplicate one', () => {
    const s = {
      ...base,
      actions: [
        action({
          url: 'https://{shop}.example/o/{orderId}',
          parameters: [
            { name: 'orderId', type: 'string' },
            { name: 'shop', type: 'string' },
            { name: 'orderId', type: 'number' },
            { name: '2fa', type: 'string' },
          ],
        }),
      ],
    };
    expect(at(s, 'actions[0].url').map((c) => c.message)).toEqual([
      'Placeholders may only stand in the path or the query, not in the host.',
    ]);
    expect(at(s, 'actions[0].parameters[2].name')[0].message).toBe('Another parameter has this name.');
    expect(at(s, 'actions[0].parameters[3].name')[0].message).toMatch(/^Letters, digits and _/);
  });

  it('reads placeholders in order, each once', () => {
    expect(placeholdersOf('https://a.example/{a}/{b}?x={a}')).toEqual(['a', 'b']);
  });

  it('asks for identity verification before an action may require it', () => {
    const s = { ...base, actions: [action({ requiresIdentity: true })] };
    expect(at(s, 'actions[0].requiresIdentity')).toHaveLength(1);
    expect(at({ ...s, identity: { secretEnv: 'ID_SECRET' } }, 'actions[0].requiresIdentity')).toEqual([]);
  });
});

describe('checkSettings: presentation, knowledge, webhooks, limits', () => {
  it('warns when white text on the theme colour is below AA, and refuses what is not a hex colour', () => {
    expect(at({ ...base, themeColor: '#1f6feb' }, 'themeColor')).toEqual([]);
    const [low] = at({ ...base, themeColor: '#ffcc00' }, 'themeColor');
    expect(low.level).toBe('warning');
    expect(low.message).toMatch(/contrast of 1\.\d\d:1, below the 4\.5:1/);
    expect(at({ ...base, themeColor: 'blue' }, 'themeColor')[0].level).toBe('error');
  });

  it('holds starters to four, non-empty, not twice', () => {
    const s = { ...base, starters: ['Shipping?', ' ', 'Shipping?', 'Returns?', 'Sizes?'] };
    expect(at(s, 'starters')[0].message).toBe('At most 4 starters.');
    expect(at(s, 'starters[1]')[0].message).toMatch(/Write the question/);
    expect(at(s, 'starters[2]')[0].message).toBe('The same starter is listed twice.');
  });

  it('counts the instructions against their limit', () => {
    expect(at({ ...base, instructions: 'a'.repeat(10_000) }, 'instructions')).toEqual([]);
    expect(at({ ...base, instructions: 'a'.repeat(10_001) }, 'instructions')[0].message).toBe(
      'At most 10000 characters (now 10001).',
    );
  });

  it('asks for a knowledge section’s title and text, and http(s) document URLs listed once', () => {
    const s = {
      ...base,
      knowledge: [{ title: '', text: 'Free over 50 €' }],
      knowledgeUrls: ['ftp://a.example/x.md', 'https://a.example/x.md', 'https://a.example/x.md'],
    };
    expect(at(s, 'knowledge[0].title')).toHaveLength(1);
    expect(at(s, 'knowledge[0].text')).toEqual([]);
    expect(at(s, 'knowledgeUrls[0]')[0].message).toMatch(/http/);
    expect(at(s, 'knowledgeUrls[2]')[0].message).toBe('This URL is listed twice.');
  });

  it('refuses a webhook version the service does not speak, and limits that are not whole numbers from 1', () => {
    const s: EditableWidgetSettings = {
      ...base,
      webhooks: [{ kind: 'order-cancellation', url: 'https://a.example/cancel', version: '2020-01-01' }],
      limits: { openStreamsPerIp: 0, messagesPerDay: 2.5, messagesPerConversation: 300 },
    };
    expect(at(s, 'webhooks[0].version')[0].message).toContain('2024-09-10');
    expect(at(s, 'limits.openStreamsPerIp')).toHaveLength(1);
    expect(at(s, 'limits.messagesPerDay')).toHaveLength(1);
    expect(at(s, 'limits.messagesPerConversation')).toEqual([]);
  });
});
