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

describe('store: issue 20', () => {
  it('a proactive message answered becomes the assistant message just before the answer, which carries it', () => {
    const store = newStore();
    store.showProactive('Need a hand choosing a size?');
    store.send('Yes, size 42');
    const [asked, answer] = store.messages.value;
    expect(asked).toMatchObject({
      role: 'assistant',
      parts: [{ type: 'text', text: 'Need a hand choosing a size?' }],
    });
    expect(answer).toMatchObject({ role: 'user', proactive: 'Need a hand choosing a size?' });
    expect(store.proactive.value).toBeUndefined();
    // Only the first answer carries it.
    store.send('And in blue?');
    expect(store.messages.value[2]?.proactive).toBeUndefined();
  });

  it('opening the chat dismisses the bubble; showing a new message shows it again', () => {
    const store = newStore();
    store.showProactive('Hello');
    expect(store.isBubbleDismissed.value).toBe(false);
    store.openChat();
    expect(store.isBubbleDismissed.value).toBe(true);
    store.closeChat();
    store.showProactive('Still there?');
    expect(store.isBubbleDismissed.value).toBe(false);
  });

  it('inline: open from the start, and closeChat() does nothing', () => {
    const store = createStore({ config, status: 'online', isHidden: false, isOpen: false, isInline: true });
    expect(store.isOpen.value).toBe(true);
    expect(store.isPanelMounted.value).toBe(true);
    store.closeChat();
    expect(store.isOpen.value).toBe(true);
  });

  it('goInline() opens, builds the panel and clears the unread badge', () => {
    const store = newStore();
    store.unread.value = 3;
    store.goInline();
    expect([
      store.isInline.value,
      store.isOpen.value,
      store.isPanelMounted.value,
      store.unread.value,
    ]).toEqual([true, true, true, 0]);
  });

  it('choices are answerable only while they belong to the last message, and only an assistant one', () => {
    const store = newStore();
    const choices = { type: 'choices' as const, options: ['1001', '1002'] };
    store.messages.value = [
      {
        id: 'a',
        role: 'assistant',
        parts: [{ type: 'text', text: 'Which one?' }, choices],
        createdAt: '',
        status: 'done',
      },
    ];
    expect(store.openChoices.value.has(choices)).toBe(true);
    store.send('1001');
    expect(store.openChoices.value.has(choices)).toBe(false);
  });
});
