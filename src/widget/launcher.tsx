import type { Ref } from 'preact';
import type { Strings } from './i18n';
import { Icon } from './icon';
import { PANEL_ID } from './ids';

export interface LauncherProps {
  isOpen: boolean;
  isHidden: boolean;
  /** Whether the panel is in the DOM yet: `aria-controls` must point at an element that exists. */
  isPanelMounted: boolean;
  /** Answers that came while the panel was closed: a badge, and part of the button's name. */
  unread: number;
  strings: Strings;
  buttonRef: Ref<HTMLButtonElement>;
  onClick: () => void;
}

export function Launcher({
  isOpen,
  isHidden,
  isPanelMounted,
  unread,
  strings,
  buttonRef,
  onClick,
}: LauncherProps) {
  const badge = !isOpen && unread > 0 ? String(Math.min(unread, 9)) + (unread > 9 ? '+' : '') : '';
  return (
    <button
      ref={buttonRef}
      type="button"
      part="launcher"
      class="launcher"
      hidden={isHidden}
      aria-label={
        isOpen
          ? strings.closeChat
          : badge
            ? `${strings.openChat} (${badge} ${strings.unread})`
            : strings.openChat
      }
      aria-expanded={isOpen}
      aria-controls={isPanelMounted ? PANEL_ID : undefined}
      aria-haspopup="dialog"
      onClick={onClick}
    >
      <Icon name={isOpen ? 'close' : 'chat'} />
      {badge && (
        <span class="badge" aria-hidden="true">
          {badge}
        </span>
      )}
    </button>
  );
}
