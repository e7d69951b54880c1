import { afterEach, describe, expect, it, vi } from 'vitest';
import { clearWidgetItems, readItem, storageKey, writeItem } from './storage';

afterEach(() => {
  vi.restoreAllMocks();
  localStorage.clear();
});

describe('storageKey()', () => {
  it('is _service_{widgetId}_{name}', () => {
    expect(storageKey('demo', 'open')).toBe('_service_demo_open');
  });

  it('escapes the separator, so one id is never the prefix of another', () => {
    expect(storageKey('demo_2', 'open')).toBe('_service_demo%5F2_open');
    expect(storageKey('demo_2', 'open').startsWith('_service_demo_')).toBe(false);
  });
});

describe('clearWidgetItems()', () => {
  it("removes this widget's keys and nothing else", () => {
    localStorage.setItem('_service_demo_open', '1');
    localStorage.setItem('_service_demo_conversation', 'c1');
    localStorage.setItem(storageKey('demo_2', 'open'), '1');
    localStorage.setItem('_service_other_open', '1');
    localStorage.setItem('cart', '3 items');
    clearWidgetItems('demo');
    expect(Object.keys(localStorage).sort()).toEqual([
      '_service_demo%5F2_open',
      '_service_other_open',
      'cart',
    ]);
  });
});

describe('when localStorage throws', () => {
  it('reads nothing, writes nothing and does not throw', () => {
    const denied = (): never => {
      throw new DOMException('The operation is insecure.', 'SecurityError');
    };
    vi.spyOn(Storage.prototype, 'getItem').mockImplementation(denied);
    vi.spyOn(Storage.prototype, 'setItem').mockImplementation(denied);
    vi.spyOn(Storage.prototype, 'key').mockImplementation(denied);
    expect(readItem('_service_demo_open')).toBeNull();
    expect(() => writeItem('_service_demo_open', '1')).not.toThrow();
    expect(() => clearWidgetItems('demo')).not.toThrow();
  });

  it('survives a window whose localStorage getter throws (sandboxed iframe)', () => {
    vi.spyOn(window, 'localStorage', 'get').mockImplementation(() => {
      throw new DOMException('denied', 'SecurityError');
    });
    expect(readItem('_service_demo_open')).toBeNull();
    expect(() => writeItem('_service_demo_open', null)).not.toThrow();
  });
});
