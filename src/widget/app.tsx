import { useLayoutEffect, useRef } from 'preact/hooks';
import type { AppProps } from './app-props';
import { Launcher } from './launcher';

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
export function App({ store, strings, chat, nudge, onLinkClick, cardActions }: AppProps) {
  const isOpen = store.isOpen.value;
  const loaded = chat.value;
  const isInline = store.isInline.value;
  const proactive = store.proactive.value;
  const NudgeView = nudge.value;
  const config = store.config.value;
  const launcherRef = useRef<HTMLButtonElement>(null);
  const panelRef = useRef<HTMLDivElement>(null);
  const inputRef = useRef<HTMLTextAreaElement>(null);
  const wasOpen = useRef(isOpen);
  const focusBeforeOpen = useRef<Element | null>(null);
  const isCloseFromInside = useRef(false);

  useLayoutEffect(() => {
    if (wasOpen.current === isOpen) return;
    // Opened before the chat's code arrived: the panel takes focus when it renders, a moment later.
    if (isOpen && !panelRef.current) return;
    wasOpen.current = isOpen;
    const root = panelRef.current?.getRootNode() as ShadowRoot | undefined;
    if (isOpen) {
      // Focus on the launcher (in our shadow root) reports as the host element: the launcher is the way back then.
      const active = document.activeElement;
      focusBeforeOpen.current = active && active !== root?.host ? active : null;
      const focus = (target: HTMLElement | null) => target?.focus({ preventScroll: true });
      // On a phone, the dialog, in the frame that paints it (as the list's first scroll, message-list.tsx) and not if
      // it closed first. With a keyboard, the composer at once: a key typed right after Enter would be lost before it.
      if (isTouchFirst()) requestAnimationFrame(() => wasOpen.current && focus(panelRef.current));
      else focus(inputRef.current);
      return;
    }
    const isFocusInside = isCloseFromInside.current || Boolean(root?.activeElement);
    isCloseFromInside.current = false;
    if (!isFocusInside) return;
    if (!store.isHidden.peek()) launcherRef.current?.focus();
    else if (focusBeforeOpen.current?.isConnected) (focusBeforeOpen.current as HTMLElement).focus?.();
  }, [isOpen, loaded]);

  const closeFromInside = (): void => {
    isCloseFromInside.current = true;
    store.closeChat();
  };

  return (
    <div
      class={`root ${config.launcherPosition === 'bottom-left' ? 'left' : 'right'}${isOpen ? ' open' : ''}${isInline ? ' inline' : ''}${store.isDark.value ? ' dark' : ''}`}
      lang={strings.lang}
      dir={strings.dir}
    >
      {loaded && (
        <loaded.View
          store={store}
          strings={strings}
          isOpen={isOpen}
          panelRef={panelRef}
          inputRef={inputRef}
          onClose={closeFromInside}
          onRetry={loaded.retry}
          onLinkClick={onLinkClick}
          cardActions={cardActions}
        />
      )}
      {!isInline && (
        // A live region that is always there, so the bubble's text is announced when it appears.
        <div class="nudge-live" aria-live="polite">
          {NudgeView && proactive && !isOpen && !store.isBubbleDismissed.value && !store.isHidden.value && (
            <NudgeView
              text={proactive}
              dismissLabel={strings.dismiss}
              onOpen={() => store.openChat()}
              onDismiss={store.dismissBubble}
            />
          )}
        </div>
      )}
      {!isInline && (
        <Launcher
          isOpen={isOpen}
          isHidden={store.isHidden.value}
          isPanelMounted={Boolean(loaded)}
          unread={store.unread.value}
          strings={strings}
          buttonRef={launcherRef}
          onClick={() => (store.isOpen.peek() ? closeFromInside() : store.openChat())}
        />
      )}
    </div>
  );
}
