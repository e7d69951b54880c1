import { action, signal } from '@preact/signals';
import type { ChatMessage, OpenChatOptions, UserData, WidgetConfig } from '../protocol';
import { createId } from './id';

/** `online` once the config came back; `offline` when the service could not be reached. */
export type ConnectionStatus = 'online' | 'offline';

/**
 * A message as the widget holds it: the protocol's `ChatMessage` plus where it stands. A user message is `pending`
 * until the service has it (the transport arrives in a later issue); until then its `id` is its `clientMessageId`.
 */
export interface WidgetMessage extends ChatMessage {
  status: 'pending' | 'sent' | 'failed';
}

export interface StoreInit {
  config: WidgetConfig;
  status: ConnectionStatus;
  isHidden: boolean;
  isOpen: boolean;
  userData?: UserData;
  customInstructions?: string;
}

/**
 * All of the widget's state, in signals. Components read `.value`; every write is a named action (batched), so the
 * public API, the UI and (later) the transport change state the same way.
 */
export function createStore(init: StoreInit) {
  const config = signal(init.config);
  const status = signal(init.status);
  const isHidden = signal(init.isHidden);
  const isOpen = signal(init.isOpen);
  // The panel's DOM is built after boot (or at the first open), so the boot task stays short on slow phones.
  const isPanelMounted = signal(init.isOpen);
  const draft = signal('');
  const messages = signal<readonly WidgetMessage[]>([]);
  const userData = signal(init.userData);
  const customInstructions = signal(init.customInstructions);

  const send = action((text: string): boolean => {
    const trimmed = text.trim();
    if (!trimmed) return false;
    const clientMessageId = createId();
    const message: WidgetMessage = {
      id: clientMessageId,
      clientMessageId,
      role: 'user',
      parts: [{ type: 'text', text: trimmed }],
      createdAt: new Date().toISOString(),
      status: 'pending',
    };
    messages.value = [...messages.value, message];
    draft.value = '';
    return true;
  });

  return {
    config,
    status,
    isHidden,
    isOpen,
    isPanelMounted,
    draft,
    messages,
    userData,
    customInstructions,
    setHidden: action((value: boolean) => {
      isHidden.value = value;
    }),
    /** Opens the panel; `message` replaces the draft, or is sent at once with `autoSend`. */
    openChat: action(({ message, autoSend }: OpenChatOptions = {}) => {
      isPanelMounted.value = true;
      isOpen.value = true;
      if (message === undefined) return;
      if (autoSend) send(message);
      else draft.value = message;
    }),
    closeChat: action(() => {
      isOpen.value = false;
    }),
    toggleChat: action(() => {
      isPanelMounted.value = true;
      isOpen.value = !isOpen.value;
    }),
    /** Builds the (closed) panel ahead of the first open; idempotent. */
    mountPanel: action(() => {
      isPanelMounted.value = true;
    }),
    setDraft: action((text: string) => {
      draft.value = text;
    }),
    send,
    setUserData: action((value: UserData) => {
      userData.value = value;
    }),
    setCustomInstructions: action((value: string) => {
      customInstructions.value = value;
    }),
    /** A new conversation: no messages, no draft, no personalization. The panel stays as it is. */
    reset: action(() => {
      messages.value = [];
      draft.value = '';
      userData.value = undefined;
      customInstructions.value = undefined;
    }),
  };
}

export type Store = ReturnType<typeof createStore>;
