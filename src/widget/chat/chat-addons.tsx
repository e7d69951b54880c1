import { type Signal, signal } from '@preact/signals';
import type { FeedbackRating } from '../../protocol';
import type { ChatAddons } from '../addons';
import type { Strings } from '../i18n';
import type { Store, WidgetMessage } from '../store';
import css from './chat-addons.css?inline';
import { ContactOffer, type ContactState, type LeaveContact } from './contact-offer';
import { createEarlier, type EarlierDeps, EarlierView } from './earlier-conversations';
import { HandoffMenu } from './handoff-menu';
import { handoffStrings } from './handoff-strings';
import { RatingCard, type RatingState, type SendRating } from './rating-card';

export { css };

export interface ChatAddonsDeps {
  store: Store;
  strings: Strings;
  /** Posts a rating; resolves whether the service took it. */
  rate(messageId: string, rating: FeedbackRating): Promise<boolean>;
  /**
   * Issue 33: the address field's state (offered by the handoff's answer, or by `transcript`), what posts an address,
   * and "Email me this conversation" (sends at once to an address left in this tab, else asks for one).
   */
  contact: {
    state: Signal<ContactState>;
    leave: LeaveContact;
    transcript(): void;
    /** The service sends email (read from the conversation's answers). */
    canEmail: Signal<boolean>;
  };
  /** Issue 33, "Other devices": a signed-in customer's earlier conversations (the panel's menu, when there is one). */
  earlier: EarlierDeps;
  /** Issue 34: "How did we do?" after a person handed back or closed the conversation, and what posts it. */
  rating: { state: Signal<RatingState>; send: SendRating };
  /** Issue 34: the agent who is typing now, or null. */
  typing: Signal<string | null>;
}

/**
 * Ids the widget makes for messages the service has not stored (yet): a proactive message before the shopper answers
 * it, a reply whose id the service did not say. Feedback needs the service's id.
 */
export const isLocalId = (id: string): boolean => id.startsWith('proactive-') || id.startsWith('reply-');

/**
 * Thumbs go under a finished answer of the assistant's that the service stored: not a greeting, agent or shopper, and
 * not a question or a notice either (a Yes/No confirm question, the handoff promise): neither is an answer to rate.
 */
export const isRateable = (message: WidgetMessage): boolean =>
  message.role === 'assistant' &&
  message.status === 'done' &&
  !message.isNotice &&
  !isLocalId(message.id) &&
  !message.parts.some((part) => part.type === 'confirm');

/**
 * In `assistant` mode, whether a person wrote last (after the shopper's last message): they were handed back and have
 * not written since, so the status line says the assistant answers again, until they do.
 */
const isHandedBack = (messages: readonly WidgetMessage[]): boolean => {
  for (let i = messages.length - 1; i >= 0; i--) {
    const { role } = messages[i];
    if (role === 'agent') return true;
    if (role === 'user') return false;
  }
  return false;
};

/** The chat's additions for handoff and feedback (addons.ts), made by the conversation's chunk. */
export function createChatAddons({
  store,
  strings,
  rate,
  contact,
  earlier,
  rating,
  typing,
}: ChatAddonsDeps): ChatAddons {
  const words = handoffStrings(strings.chat);
  const list = createEarlier(earlier);
  /** The shopper's rating of each answer, in this tab (the service keeps the last one). */
  const ratings = signal<Readonly<Record<string, FeedbackRating>>>({});

  const press = async (messageId: string, rating: FeedbackRating): Promise<void> => {
    const before = ratings.peek()[messageId];
    if (before === rating) return;
    ratings.value = { ...ratings.peek(), [messageId]: rating };
    if (await rate(messageId, rating)) return;
    // Not taken: the buttons show what the service has.
    const { [messageId]: _, ...rest } = ratings.peek();
    ratings.value = before ? { ...rest, [messageId]: before } : rest;
  };

  return {
    Header() {
      const { handoff } = store.config.value;
      const items = [
        ...(handoff
          ? [
              {
                label: words.talkToPerson,
                isDisabled: store.mode.value !== 'assistant',
                onChoose: store.requestHuman,
              },
            ]
          : []),
        // Issue 33: once there is a conversation to send.
        ...(contact.canEmail.value && store.messages.value.length > 0
          ? [{ label: words.emailTranscript, onChoose: contact.transcript }]
          : []),
        // Issue 33: a signed-in customer (the page gave an identity token) sees their conversations from any device.
        ...(store.identityToken.value ? [{ label: words.earlier, onChoose: list.show }] : []),
      ];
      if (items.length === 0) return null;
      return <HandoffMenu label={words.moreOptions} items={items} />;
    },
    Status() {
      const mode = store.mode.value;
      const agent = store.agent.value;
      const text =
        mode === 'waiting'
          ? words.waiting
          : mode === 'agent' && agent
            ? words.chattingWith.replace('{name}', agent)
            : isHandedBack(store.messages.value)
              ? words.backWithAssistant
              : '';
      // Always in the DOM: a live region announces a change of its text (once), not its arrival. The address form is
      // beside it, not in it: a live region announces what it holds.
      const typist = typing.value;
      return (
        <>
          <div class="handoff" role="status">
            {text && <p class="handoff-status">{text}</p>}
            {typist && <p class="handoff-status">{words.typing.replace('{name}', typist)}</p>}
          </div>
          <ContactOffer state={contact.state} words={words} leave={contact.leave} />
          <RatingCard state={rating.state} words={words} send={rating.send} />
          <EarlierView earlier={list} words={words} strings={strings} />
        </>
      );
    },
    Before({ message }) {
      return message.role === 'agent' && message.author ? <span class="author">{message.author}</span> : null;
    },
    After({ message }) {
      if (!isRateable(message)) return null;
      const rating = ratings.value[message.id];
      return (
        <span class="thumbs">
          <button
            type="button"
            class="thumb"
            aria-label={words.helpful}
            aria-pressed={rating === 'up'}
            onClick={() => void press(message.id, 'up')}
          >
            <Thumb />
          </button>
          <button
            type="button"
            class="thumb down"
            aria-label={words.notHelpful}
            aria-pressed={rating === 'down'}
            onClick={() => void press(message.id, 'down')}
          >
            <Thumb />
          </button>
        </span>
      );
    },
  };
}

const Thumb = () => (
  <svg viewBox="0 0 24 24" width="16" height="16" aria-hidden="true" focusable="false">
    <path d="M2 10h4v11H2zm6 11h9.3a2 2 0 0 0 2-1.6l1.6-7A2 2 0 0 0 19 10h-5.3l.8-4.2A2 2 0 0 0 12.5 3L8 9z" />
  </svg>
);
