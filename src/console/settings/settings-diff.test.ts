import { describe, expect, it } from 'vitest';
import type { EditableWidgetSettings } from '../../protocol/widget-settings';
import { diffSettings } from './settings-diff';

const before: EditableWidgetSettings = {
  allowedOrigins: ['*'],
  title: 'Shop',
  starters: ['Shipping?'],
  actions: [
    { name: 'Track', url: 'https://a.example/t', enabled: true },
    { name: 'Order status', url: 'https://a.example/o/{id}', parameters: [{ name: 'id', type: 'string' }] },
  ],
  limits: { openStreamsPerIp: 5 },
};

describe('diffSettings', () => {
  it('lists each changed field with its path and words naming the item', () => {
    const after: EditableWidgetSettings = structuredClone(before);
    after.title = 'The shop';
    after.actions![1].url = 'https://a.example/orders/{id}';
    after.actions![0].enabled = false;
    delete after.limits;
    after.greeting = 'Hello';
    const changes = diffSettings(before, after);
    expect(changes).toEqual([
      { path: 'title', label: 'Title', before: 'Shop', after: 'The shop' },
      { path: 'actions[0].enabled', label: 'Action 1 “Track” · enabled', before: true, after: false },
      {
        path: 'actions[1].url',
        label: 'Action 2 “Order status” · URL',
        before: 'https://a.example/o/{id}',
        after: 'https://a.example/orders/{id}',
      },
      { path: 'greeting', label: 'Greeting', before: undefined, after: 'Hello' },
      { path: 'limits.openStreamsPerIp', label: 'Limits · openStreamsPerIp', before: 5, after: undefined },
    ]);
  });

  it('finds nothing between equal versions, and every field of the first version', () => {
    expect(diffSettings(before, structuredClone(before))).toEqual([]);
    const first = diffSettings(null, { allowedOrigins: ['*'], title: 'Shop' });
    expect(first.map((c) => c.path)).toEqual(['allowedOrigins[0]', 'title']);
    expect(first[0].label).toBe('Allowed origins 1');
  });

  it('names a removed item by the version it was in', () => {
    const after = structuredClone(before);
    after.actions = [after.actions![0]];
    const removed = diffSettings(before, after).map((c) => c.label);
    expect(removed).toContain('Action 2 “Order status” · URL');
    expect(removed).toContain('Action 2 “Order status” · parameter 1 “id” · name');
  });
});
