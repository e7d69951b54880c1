import { type Signal, signal } from '@preact/signals';
import type { CustomerConversationsResponse } from '../../protocol';
import type { Strings } from '../i18n';
import type { HandoffStrings } from './handoff-strings';

// Issue 33, "Other devices": a signed-in customer's earlier conversations, from any device, newest first (at most 20,
// `POST …/customer/conversations`), over the whole panel as Intercom's and Crisp's message lists are: each row its
// date, what it was about (the shopper's first message) and its last message; choosing one reopens it here (and in the store's other tabs), "Start a new
// conversation" begins one. Written with the signals and the classes the chat already has (no hooks the launcher's
// chunk lacks, the panel's header and buttons): everything the widget can load stays within its 40 KB.

export type EarlierConversation = CustomerConversationsResponse['conversations'][number];

export interface EarlierDeps {
  /** The customer's conversations; rejects when they could not be read. */
  list(): Promise<EarlierConversation[]>;
  /** Reopens one here; resolves false when it could not be. */
  open(id: string): Promise<boolean>;
  startNew(): void;
  /** The conversation this device shows now (marked in the list; choosing it just goes back). */
  currentId(): string | null;
}

type EarlierState =
  | { step: 'closed' | 'loading' | 'failed' }
  | { step: 'shown'; conversations: EarlierConversation[]; opening?: string; hasFailed?: boolean };

export interface Earlier {
  state: Signal<EarlierState>;
  /** Shows the list (and reads it again). */
  show(): void;
  hide(): void;
  choose(id: string): Promise<void>;
  startNew(): void;
  currentId(): string | null;
  /** The list's ref (see `trapIn`). */
  trap(root: HTMLElement | null): void;
}

/**
 * While the list shows, the rest of the panel (its header, the status line, the messages, the composer) is inert, so
 * keyboard and screen reader stay in it; as it goes, the focus returns to the menu it came from. A ref callback, not
 * an effect: Preact calls it with the element as the list mounts and with null as it unmounts. One per widget: what it
 * shut is its own.
 */
function trapIn(): (root: HTMLElement | null) => void {
  let shut: HTMLElement[] = [];
  let panel: HTMLElement | null = null;
  return (root) => {
    if (root) {
      panel = root.parentElement;
      shut = [...(panel?.children ?? [])].filter(
        (el): el is HTMLElement => el !== root && !(el as HTMLElement).inert,
      );
      for (const el of shut) el.inert = true;
      root.querySelector('button')?.focus();
      return;
    }
    for (const el of shut) el.inert = false;
    panel?.querySelector<HTMLElement>('.menu-button')?.focus();
    shut = [];
    panel = null;
  };
}

export function createEarlier(deps: EarlierDeps): Earlier {
  const state = signal<EarlierState>({ step: 'closed' });
  const hide = (): void => {
    state.value = { step: 'closed' };
  };
  return {
    state,
    hide,
    currentId: deps.currentId,
    trap: trapIn(),
    show() {
      state.value = { step: 'loading' };
      deps.list().then(
        (conversations) => {
          if (state.peek().step === 'loading') state.value = { step: 'shown', conversations };
        },
        () => {
          if (state.peek().step === 'loading') state.value = { step: 'failed' };
        },
      );
    },
    async choose(id) {
      const now = state.peek();
      if (now.step !== 'shown' || now.opening) return;
      if (id === deps.currentId()) return hide();
      state.value = { ...now, opening: id, hasFailed: false };
      if (await deps.open(id)) return hide();
      state.value = { ...now, opening: undefined, hasFailed: true };
    },
    startNew() {
      deps.startNew();
      hide();
    },
  };
}

/** "28 Nov 2026, 22:04" in the widget's language; today's just the time. */
const when = (at: string, lang: string): string => {
  const date = new Date(at);
  const isToday = date.toDateString() === new Date().toDateString();
  try {
    return date.toLocaleString(lang, { ...(!isToday && { dateStyle: 'medium' }), timeStyle: 'short' });
  } catch {
    return '';
  }
};

export interface EarlierViewProps {
  earlier: Earlier;
  words: HandoffStrings;
  /** The chat's strings: its language, and "Try again". */
  strings: Strings;
}

export function EarlierView({ earlier, words, strings }: EarlierViewProps) {
  const now = earlier.state.value;
  if (now.step === 'closed') return null;
  const current = earlier.currentId();
  return (
    <div
      ref={earlier.trap}
      class="earlier"
      role="dialog"
      aria-label={words.earlier}
      onKeyDown={(event) => {
        if (event.key !== 'Escape') return;
        // The list's Escape goes back to the chat; the panel's would close it.
        event.stopPropagation();
        earlier.hide();
      }}
    >
      <div class="header">
        <button type="button" class="earlier-back" aria-label={words.backToChat} onClick={earlier.hide}>
          <svg viewBox="0 0 24 24" width="20" height="20" aria-hidden="true" focusable="false">
            <path d="M15 5l-7 7 7 7" />
          </svg>
        </button>
        <h2 class="title">{words.earlier}</h2>
      </div>
      <div class="earlier-body" aria-busy={now.step === 'loading'}>
        {now.step === 'failed' && (
          <p class="contact-done" role="alert">
            {words.contactFailed}{' '}
            <button type="button" class="contact-later" onClick={earlier.show}>
              {strings.retry}
            </button>
          </p>
        )}
        {now.step === 'shown' && (
          <>
            {now.hasFailed && (
              <p class="contact-done" role="alert">
                {words.contactFailed}
              </p>
            )}
            {now.conversations.length === 0 && <p class="contact-done">{words.noEarlier}</p>}
            {now.conversations.map((conversation) => {
              const last = conversation.lastMessage;
              return (
                <button
                  key={conversation.id}
                  type="button"
                  class="earlier-item"
                  aria-current={conversation.id === current || undefined}
                  aria-busy={now.opening === conversation.id || undefined}
                  onClick={() => void earlier.choose(conversation.id)}
                >
                  <span class="earlier-when">{when(last?.at ?? conversation.updatedAt, strings.lang)}</span>
                  {conversation.firstQuestion && (
                    <span class="earlier-title" dir="auto">
                      {conversation.firstQuestion}
                    </span>
                  )}
                  <span class="earlier-text" dir="auto">
                    {last && `${last.role === 'user' ? `${words.you}: ` : ''}${last.text}`}
                  </span>
                </button>
              );
            })}
          </>
        )}
      </div>
      <button type="button" class="contact-send earlier-new" onClick={earlier.startNew}>
        {words.startNew}
      </button>
    </div>
  );
}
