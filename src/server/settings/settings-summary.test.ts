// @vitest-environment node
import { describe, expect, it } from 'vitest';
import type { EditableWidgetSettings } from '../../protocol/widget-settings';
import { settingsSummary } from './settings-summary';

const base: EditableWidgetSettings = {
  allowedOrigins: ['https://shop.example'],
  title: 'Shop',
  limits: { openStreamsPerIp: 20, messagesPerConversation: 200 },
  actions: [
    { name: 'Track', url: 'https://shop.example/track', enabled: true },
    { name: 'Order status', url: 'https://shop.example/orders/{id}', enabled: true },
  ],
};

describe('settingsSummary()', () => {
  it('names top-level fields, each changed action by index and name with its fields, and each limit', () => {
    const after: EditableWidgetSettings = {
      ...base,
      title: 'Help',
      limits: { ...base.limits, openStreamsPerIp: 5 },
      actions: [
        base.actions![0],
        { ...base.actions![1], url: 'https://shop.example/o/{id}', enabled: false },
      ],
    };
    expect(settingsSummary(after, base)).toBe(
      'title; limits.openStreamsPerIp; actions[1] (Order status): url, enabled',
    );
  });

  it('says an action was added or removed, and "no changes" when none', () => {
    const added = {
      ...base,
      actions: [...base.actions!, { name: 'Returns', url: 'https://shop.example/r' }],
    };
    expect(settingsSummary(added, base)).toBe('actions[2] (Returns) added');
    expect(settingsSummary(base, added)).toBe('actions[2] (Returns) removed');
    expect(settingsSummary(base, structuredClone(base))).toBe('no changes');
  });
});
