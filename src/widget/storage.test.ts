import { afterEach, describe, expect, it, vi } from 'vitest';
import { clearWidgetItems, readItem, setStorageMode, storageKey, storageMode, writeItem } from './storage';

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

describe('setStorageMode()', () => {
  afterEach(() => {
    setStorageMode('demo', 'local');
    sessionStorage.clear();
  });

  it('none: reads and writes stay in memory; localStorage and sessionStorage get nothing, and lose what they had', () => {
    localStorage.setItem('_service_demo_conversation', 'old');
    sessionStorage.setItem('_service_demo_open', '1');
    localStorage.setItem('cart', '3 items');
    setStorageMode('demo', 'none');
    expect(readItem('_service_demo_conversation')).toBe('old');
    writeItem('_service_demo_token', 't1');
    expect(readItem('_service_demo_token')).toBe('t1');
    expect(Object.keys(localStorage)).toEqual(['cart']);
    expect(sessionStorage.length).toBe(0);
  });

  it('session: what the widget stores goes to sessionStorage, never localStorage', () => {
    setStorageMode('demo', 'session');
    writeItem('_service_demo_conversation', 'c1');
    expect(sessionStorage.getItem('_service_demo_conversation')).toBe('c1');
    expect(localStorage.length).toBe(0);
    expect(readItem('_service_demo_conversation')).toBe('c1');
  });

  it('a consent given mid-conversation keeps the conversation: none → local moves the items into localStorage', () => {
    setStorageMode('demo', 'none');
    writeItem('_service_demo_conversation', 'c1');
    setStorageMode('demo', 'local');
    expect(localStorage.getItem('_service_demo_conversation')).toBe('c1');
    expect(storageMode()).toBe('local');
  });

  it('withdrawn consent (local → none) removes the stored items and keeps the conversation in memory', () => {
    writeItem('_service_demo_conversation', 'c1');
    setStorageMode('demo', 'none');
    expect(localStorage.length).toBe(0);
    expect(readItem('_service_demo_conversation')).toBe('c1');
    clearWidgetItems('demo');
    expect(readItem('_service_demo_conversation')).toBeNull();
  });
});
