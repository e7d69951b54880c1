import { action, computed, signal } from '@preact/signals';
import type {
  ConversationMode,
  MessagePart,
  OpenChatOptions,
  PageContext,
  UserData,
  WidgetConfig,
} from '../protocol';
import type { ChatAddons } from './addons';
import { createId } from './id';
import type { WidgetMessage } from './widget-message';

/**
 * What the shopper is told about the connection: `online`; `offline` (the config could not be fetched, the browser
 * is offline, or the service cannot be reached: messages wait in the queue); `reconnecting` (a request failed and is
 * being retried, or a dropped answer is being resumed).
 */
export type ConnectionStatus = 'online' | 'offline' | 'reconnecting';

export type { WidgetMessage } from './widget-message';

export interface StoreInit {
  config: WidgetConfig;
  status: ConnectionStatus;
  isHidden: boolean;
  isOpen: boolean;
  /** Inline mode (`container`): the chat lives in a page element, always open, without a launcher. */
  isInline?: boolean;
  userData?: UserData;
  customInstructions?: string;
  identityToken?: string;
}

/**
 * A message of the shopper's as the widget writes it (the composer, a Yes or No, a message from another tab, the
 * outbox a previous page left): `pending`, its id its `clientMessageId`, until the service has it. `extra` adds to it
 * or overrides its parts (an answer's words).
 */
export const userMessage = (id: string, text: string, extra?: Partial<WidgetMessage>): WidgetMessage => ({
  id,
  clientMessageId: id,
  role: 'user',
  parts: [{ type: 'text', text }],
  createdAt: new Date().toISOString(),
  status: 'pending',
  ...extra,
});

/** The proactive message the shopper's message `answer` answers, shown as the assistant's just before it. */
export const proactiveMessage = (answer: WidgetMessage): WidgetMessage => ({
  id: `proactive-${answer.clientMessageId}`,
  role: 'assistant',
  parts: [{ type: 'text', text: answer.proactive as string }],
  createdAt: answer.createdAt,
  status: 'done',
});

/**
 * All of the widget's state, in signals. Components read `.value`; every write is a named action (batched), so the
 * public API, the UI and (later) the transport change state the same way.
 */
export function createStore(init: StoreInit) {
  const config = signal(init.config);
  const status = signal(init.status);
  const isHidden = signal(init.isHidden);
  const isInline = signal(Boolean(init.isInline));
  const isOpen = signal(init.isOpen || isInline.peek());
  // The panel's DOM is built after boot (or at the first open), so the boot task stays short on slow phones.
  const isPanelMounted = signal(isOpen.peek());
  const draft = signal('');
  const messages = signal<readonly WidgetMessage[]>([]);
  const userData = signal(init.userData);
  const customInstructions = signal(init.customInstructions);
  /** `Service.setPageContext`: absent until the page sets one, `null` once it cleared it. */
  const pageContext = signal<PageContext | null | undefined>(undefined);
  /** The page's identity token; not cleared by `reset()`: a new conversation is still this customer's. */
  const identityToken = signal(init.identityToken);
  /** Answers that arrived while the panel was closed (the launcher's badge). */
  const unread = signal(0);
  /** The dark colour scheme: the `theme` setting, or the device's while it is `auto` (theme.ts). */
  const isDark = signal(false);
  /** The last finished answer as plain text, for the polite live region. */
  const announcement = signal('');
  /** Who answers (DESIGN "Human handoff"), and the agent's name while one has the conversation. */
  const mode = signal<ConversationMode>('assistant');
  const agent = signal<string | undefined>(undefined);
  /** The shopper or the page asked for a person; the conversation's code does it (and clears this) once loaded. */
  const isHumanAsked = signal(false);
  /** What the conversation's chunk adds to the chat when it arrives (addons.ts). */
  const addons = signal<ChatAddons | undefined>(undefined);

  /**
   * `Service.showMessage`: the proactive message, shown by the closed launcher and atop the chat, until the shopper
   * answers it (it then goes out with their message and is part of the conversation) or dismisses it.
   */
  const proactive = signal<string | undefined>(undefined);
  /** The proactive message's bubble by the launcher was closed (×) or the chat was opened. */
  const isBubbleDismissed = signal(false);
  const send = action((text: string): boolean => {
    const trimmed = text.trim();
    if (!trimmed) return false;
    const message = userMessage(createId(), trimmed);
    // Answering a proactive message makes it part of the conversation: shown as the assistant's, just before.
    const asked = proactive.value;
    if (asked) {
      message.proactive = asked;
      proactive.value = undefined;
      messages.value = [...messages.value, proactiveMessage(message), message];
    } else messages.value = [...messages.value, message];
    draft.value = '';
    return true;
  });

  /**
   * Each `confirm` part's state by id: answered by its buttons, or closed by a later message; open ones are absent.
   * Read only while a confirm part is shown, so a conversation without one never computes it.
   */
  const confirmations = computed(() => {
    const states = new Map<string, 'yes' | 'no' | 'closed'>();
    let open: string[] = [];
    for (const m of messages.value) {
      if (m.role === 'assistant') {
        for (const p of m.parts) if (p.type === 'confirm') open.push(p.id);
      } else if (open.length) {
        for (const id of open)
          states.set(id, m.clientMessageId === `confirm-${id}` ? (m.answer ?? 'closed') : 'closed');
        open = [];
      }
    }
    return states;
  });

  /** The `choices` parts still answerable: those of the last message, while it is the assistant's. */
  const openChoices = computed(() => {
    const last = messages.value.at(-1);
    return new Set<MessagePart>(
      last?.role === 'assistant' ? last.parts.filter((p) => p.type === 'choices') : [],
    );
  });

  /** Opens the panel; `message` replaces the draft, or is sent at once with `autoSend`. */
  const openChat = action(({ message, autoSend }: OpenChatOptions = {}) => {
    isBubbleDismissed.value = true;
    isPanelMounted.value = true;
    isOpen.value = true;
    unread.value = 0;
    if (message === undefined) return;
    if (autoSend) send(message);
    else draft.value = message;
  });

  return {
    config,
    status,
    confirmations,
    openChoices,
    /** The shopper pressed Yes or No on a confirm part: the answer joins the outbox as their message (`label`). */
    answer: action((id: string, answer: 'yes' | 'no', label: string) => {
      const clientMessageId = `confirm-${id}`;
      if (messages.value.some((m) => m.clientMessageId === clientMessageId)) return;
      messages.value = [...messages.value, userMessage(clientMessageId, label, { answer })];
    }),
    isHidden,
    isOpen,
    isPanelMounted,
    draft,
    messages,
    userData,
    customInstructions,
    identityToken,
    unread,
    announcement,
    setHidden: action((value: boolean) => {
      isHidden.value = value;
    }),
    isDark,
    setDark: action((value: boolean) => {
      isDark.value = value;
    }),
    openChat,
    mode,
    agent,
    isHumanAsked,
    addons,
    /** "Talk to a person" (the panel's menu, `Service.requestHuman()`): the chat opens and asks. */
    requestHuman: action(() => {
      openChat();
      isHumanAsked.value = true;
    }),
    /** Inline, the chat cannot close: it is part of the page. */
    closeChat: action(() => {
      if (!isInline.value) isOpen.value = false;
    }),
    isInline,
    /** Inline mode from now on (`Service.mount(element)`): open, the panel built, nothing unread. */
    goInline: action(() => {
      isInline.value = true;
      isPanelMounted.value = true;
      isOpen.value = true;
      unread.value = 0;
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
    proactive,
    isBubbleDismissed,
    showProactive: action((text: string) => {
      proactive.value = text;
      isBubbleDismissed.value = false;
    }),
    dismissBubble: action(() => {
      isBubbleDismissed.value = true;
    }),
    pageContext,
    setPageContext: action((value: PageContext | null) => {
      pageContext.value = value;
    }),
    setCustomInstructions: action((value: string) => {
      customInstructions.value = value;
    }),
    setIdentityToken: action((value: string | null) => {
      identityToken.value = value ?? undefined;
    }),
    /** A new conversation: no messages, no draft, no personalization. The panel stays as it is. */
    reset: action(() => {
      messages.value = [];
      draft.value = '';
      unread.value = 0;
      announcement.value = '';
      mode.value = 'assistant';
      agent.value = undefined;
      userData.value = undefined;
      customInstructions.value = undefined;
    }),
  };
}

export type Store = ReturnType<typeof createStore>;
