import type { Ref } from 'preact';
import type { Strings } from './i18n';
import { Icon } from './icon';
import { PANEL_ID } from './ids';

export interface LauncherProps {
  isOpen: boolean;
  isHidden: boolean;
  /** Whether the panel is in the DOM yet: `aria-controls` must point at an element that exists. */
  isPanelMounted: boolean;
  strings: Strings;
  buttonRef: Ref<HTMLButtonElement>;
  onClick: () => void;
}

export function Launcher({ isOpen, isHidden, isPanelMounted, strings, buttonRef, onClick }: LauncherProps) {
  return (
    <button
      ref={buttonRef}
      type="button"
      part="launcher"
      class="launcher"
      hidden={isHidden}
      aria-label={isOpen ? strings.closeChat : strings.openChat}
      aria-expanded={isOpen}
      aria-controls={isPanelMounted ? PANEL_ID : undefined}
      aria-haspopup="dialog"
      onClick={onClick}
    >
      <Icon name={isOpen ? 'close' : 'chat'} />
    </button>
  );
}
