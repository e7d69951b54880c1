import { describe, expect, it } from 'vitest';
import { isSameSettings } from './same-settings';

describe('isSameSettings()', () => {
  const onReady = () => {};
  it('is true for deep-equal plain objects, whatever the key order', () => {
    expect(
      isSameSettings(
        { widgetId: 'demo', userData: { plan: 'gold', n: 1 }, onReady },
        { userData: { n: 1, plan: 'gold' }, onReady, widgetId: 'demo' },
      ),
    ).toBe(true);
    expect(isSameSettings(undefined, undefined)).toBe(true);
  });

  it('is false for another value, a missing or extra key, or another callback', () => {
    expect(isSameSettings({ widgetId: 'demo' }, { widgetId: 'other' })).toBe(false);
    expect(isSameSettings({ widgetId: 'demo' }, { widgetId: 'demo', hidden: true })).toBe(false);
    expect(isSameSettings({ widgetId: 'demo', hidden: undefined }, { widgetId: 'demo' })).toBe(false);
    expect(isSameSettings({ onReady }, { onReady: () => {} })).toBe(false);
    expect(isSameSettings({ userData: null }, { userData: {} })).toBe(false);
  });

  it('compares elements by identity, not by their (empty) own keys', () => {
    const a = document.createElement('div');
    const b = document.createElement('div');
    expect(isSameSettings({ container: a }, { container: a })).toBe(true);
    expect(isSameSettings({ container: a }, { container: b })).toBe(false);
  });
});
