import { useLayoutEffect, useMemo, useRef } from 'preact/hooks';
import type { MessagePart } from '../protocol';
import { Composer } from './composer';
import type { Strings } from './i18n';
import { Launcher } from './launcher';
import { MessageList } from './message-list';
import { Panel } from './panel';
import { PartView } from './parts';
import type { Store } from './store';

export interface AppProps {
  store: Store;
  strings: Strings;
  /** Sends a failed message again (the conversation's `retry`). */
  onRetry: (messageId: string) => void;
  /** A link in a message or card was followed: `service:link-click` and `onLinkClick`. */
  onLinkClick: (url: string) => void;
}

// On touch devices, focusing the textarea would pop the keyboard over a panel the shopper has not read yet.
const isTouchFirst = (): boolean =>
  typeof matchMedia === 'function' && matchMedia('(pointer: coarse)').matches;

/**
 * Focus, the contract:
 * - Every open (launcher, `openChat()`) moves focus into the panel, as Intercom does: the textarea, or the dialog
 *   itself on touch devices. A panel restored open at page load takes no focus: loading never steals focus.
 * - A close from inside the widget (Escape, the close button, the launcher), or any close while focus is inside,
 *   returns focus to the launcher, or when the launcher is hidden to what had focus before the panel opened.
 *   `closeChat()` called while the shopper is elsewhere on the page leaves focus where it is.
 */
export function App({ store, strings, onRetry, onLinkClick }: AppProps) {
  const isOpen = store.isOpen.value;
  const config = store.config.value;
  const launcherRef = useRef<HTMLButtonElement>(null);
  const panelRef = useRef<HTMLDivElement>(null);
  const inputRef = useRef<HTMLTextAreaElement>(null);
  const wasOpen = useRef(isOpen);
  const focusBeforeOpen = useRef<Element | null>(null);
  const isCloseFromInside = useRef(false);

  useLayoutEffect(() => {
    if (wasOpen.current === isOpen) return;
    wasOpen.current = isOpen;
    const root = panelRef.current?.getRootNode() as ShadowRoot | undefined;
    if (isOpen) {
      // Focus on the launcher (in our shadow root) reports as the host element: the launcher is the way back then.
      const active = document.activeElement;
      focusBeforeOpen.current = active && active !== root?.host ? active : null;
      const target = isTouchFirst() ? panelRef.current : inputRef.current;
      target?.focus({ preventScroll: true });
      return;
    }
    const isFocusInside = isCloseFromInside.current || Boolean(root?.activeElement);
    isCloseFromInside.current = false;
    if (!isFocusInside) return;
    if (!store.isHidden.peek()) launcherRef.current?.focus();
    else if (focusBeforeOpen.current?.isConnected) (focusBeforeOpen.current as HTMLElement).focus?.();
  }, [isOpen]);

  const linkTarget = config.linkTarget;
  const onAnswer = useMemo(
    () => (id: string, answer: 'yes' | 'no') => store.answer(id, answer, strings[answer]),
    [store, strings],
  );
  const renderPart = useMemo(
    () =>
      (part: MessagePart, index: number): preact.ComponentChild => (
        <PartView
          key={index}
          part={part}
          strings={strings}
          linkTarget={linkTarget}
          onLinkClick={onLinkClick}
          confirmations={store.confirmations}
          onAnswer={onAnswer}
          openChoices={store.openChoices}
          onChoose={store.send}
        />
      ),
    [strings, linkTarget, onLinkClick, onAnswer],
  );

  const closeFromInside = (): void => {
    isCloseFromInside.current = true;
    store.closeChat();
  };

  return (
    <div
      class={`root ${config.launcherPosition === 'bottom-left' ? 'left' : 'right'}${isOpen ? ' open' : ''}`}
      lang={strings.lang}
    >
      {store.isPanelMounted.value && (
        <Panel
          isOpen={isOpen}
          title={config.title}
          strings={strings}
          panelRef={panelRef}
          onClose={closeFromInside}
        >
          <MessageList
            isOpen={isOpen}
            greeting={config.greeting}
            status={store.status}
            messages={store.messages}
            announcement={store.announcement}
            strings={strings}
            renderPart={renderPart}
            onRetry={onRetry}
          />
          <Composer
            draft={store.draft}
            strings={strings}
            inputRef={inputRef}
            onDraft={store.setDraft}
            onSend={() => store.send(store.draft.peek())}
          />
        </Panel>
      )}
      <Launcher
        isOpen={isOpen}
        isHidden={store.isHidden.value}
        isPanelMounted={store.isPanelMounted.value}
        unread={store.unread.value}
        strings={strings}
        buttonRef={launcherRef}
        onClick={() => (store.isOpen.peek() ? closeFromInside() : store.openChat())}
      />
    </div>
  );
}
