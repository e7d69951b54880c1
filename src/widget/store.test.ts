import { effect } from '@preact/signals';
import { describe, expect, it } from 'vitest';
import type { WidgetConfig } from '../protocol';
import { createStore } from './store';

const config: WidgetConfig = {
  greeting: 'Hi',
  title: 'Assistant',
  theme: { color: '#1d4ed8' },
  launcherPosition: 'bottom-right',
  linkTarget: '_self',
  hideUrls: [],
};

const newStore = () =>
  createStore({
    config,
    status: 'online',
    isHidden: false,
    isOpen: false,
    userData: { email: 'ada@example.com' },
    customInstructions: 'Be brief.',
  });

describe('store', () => {
  it('send() appends a pending user message with an id and clears the draft', () => {
    const store = newStore();
    store.setDraft('  Hello there \n');
    expect(store.send(store.draft.value)).toBe(true);
    const [message] = store.messages.value;
    expect(message).toEqual({
      id: message?.clientMessageId,
      clientMessageId: expect.stringMatching(/^[0-9a-f-]{32,36}$/),
      role: 'user',
      parts: [{ type: 'text', text: 'Hello there' }],
      createdAt: expect.any(String),
      status: 'pending',
    });
    expect(Number.isNaN(Date.parse(message?.createdAt ?? ''))).toBe(false);
    expect(store.draft.value).toBe('');
  });

  it('send() ignores blank text', () => {
    const store = newStore();
    expect(store.send('   ')).toBe(false);
    expect(store.messages.value).toEqual([]);
  });

  it('gives every message its own id', () => {
    const store = newStore();
    store.send('a');
    store.send('a');
    const [first, second] = store.messages.value;
    expect(first?.id).not.toBe(second?.id);
  });

  it('openChat() with a message and autoSend changes state in one batch', () => {
    const store = newStore();
    const seen: [boolean, number][] = [];
    const stop = effect(() => {
      seen.push([store.isOpen.value, store.messages.value.length]);
    });
    store.openChat({ message: 'Hi', autoSend: true });
    stop();
    expect(seen).toEqual([
      [false, 0],
      [true, 1],
    ]);
  });

  it('reset() forgets the conversation and the personalization, not the panel state', () => {
    const store = newStore();
    store.openChat({ message: 'Hi', autoSend: true });
    store.setDraft('more');
    store.setUserData({ email: 'eve@example.com' });
    store.setCustomInstructions('Speak like a pirate.');
    store.reset();
    expect(store.messages.value).toEqual([]);
    expect(store.draft.value).toBe('');
    expect(store.userData.value).toBeUndefined();
    expect(store.customInstructions.value).toBeUndefined();
    expect(store.isOpen.value).toBe(true);
  });
});
