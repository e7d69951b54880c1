import type { ComponentChildren, Ref } from 'preact';
import type { Strings } from './i18n';
import { Icon } from './icon';
import { PANEL_ID, TITLE_ID } from './ids';

export interface PanelProps {
  isOpen: boolean;
  title: string;
  strings: Strings;
  panelRef: Ref<HTMLDivElement>;
  onClose: () => void;
  children: ComponentChildren;
}

/**
 * The chat window. It stays in the DOM while closed, so the launcher's `aria-controls` always resolves. Escape anywhere
 * inside closes it.
 */
export function Panel({ isOpen, title, strings, panelRef, onClose, children }: PanelProps) {
  return (
    <div
      ref={panelRef}
      id={PANEL_ID}
      part="panel"
      class="panel"
      role="dialog"
      aria-labelledby={TITLE_ID}
      tabIndex={-1}
      hidden={!isOpen}
      onKeyDown={(event) => {
        if (event.key !== 'Escape' || event.isComposing) return;
        // Ours to handle: the page's own Escape handlers (its modals) should not fire as well.
        event.stopPropagation();
        onClose();
      }}
    >
      <div class="header">
        <h2 id={TITLE_ID} class="title">
          {title}
        </h2>
        <button type="button" class="close" aria-label={strings.closeChat} onClick={onClose}>
          <Icon name="close" />
        </button>
      </div>
      {children}
    </div>
  );
}
