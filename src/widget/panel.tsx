import type { ComponentChildren, Ref } from 'preact';
import type { Strings } from './i18n';
import { Icon } from './icon';
import { PANEL_ID, TITLE_ID } from './ids';

export interface PanelProps {
  isOpen: boolean;
  title: string;
  strings: Strings;
  panelRef: Ref<HTMLDivElement>;
  /** Inline mode: a region of the page, not a dialog, and nothing to close. */
  isInline?: boolean;
  onClose: () => void;
  /** In the header, before the close button (the conversation's menu, addons.ts). */
  tools?: ComponentChildren;
  children: ComponentChildren;
}

/**
 * The chat window. It stays in the DOM while closed, so the launcher's `aria-controls` always resolves. Escape anywhere
 * inside closes it.
 */
export function Panel({ isOpen, title, strings, panelRef, isInline, onClose, tools, children }: PanelProps) {
  return (
    // biome-ignore lint/a11y/noStaticElementInteractions: the role is `dialog` or `region` (set below), not static.
    // biome-ignore lint/a11y/useAriaPropsSupportedByRole: both roles take aria-labelledby; biome cannot read a dynamic role.
    <div
      ref={panelRef}
      id={PANEL_ID}
      part="panel"
      class="panel"
      role={isInline ? 'region' : 'dialog'}
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
        {tools}
        {!isInline && (
          <button type="button" class="close" aria-label={strings.closeChat} onClick={onClose}>
            <Icon name="close" />
          </button>
        )}
      </div>
      {children}
    </div>
  );
}
