import { useLayoutEffect, useRef, useState } from 'preact/hooks';

export interface MenuItem {
  label: string;
  /** Shown but not choosable (a person was asked for already). */
  isDisabled?: boolean;
  onChoose: () => void;
}

export interface HandoffMenuProps {
  /** The button's accessible name ("More options"). */
  label: string;
  items: MenuItem[];
}

const MENU_ID = 'service-menu';

/**
 * The panel header's "More options" menu, a WAI-ARIA menu button (https://www.w3.org/WAI/ARIA/apg/patterns/menu-button/):
 * Enter, Space or ArrowDown on the button opens it on its first item, ArrowUp on its last; ArrowDown/ArrowUp move
 * (wrapping), Home/End jump; Enter or Space chooses; Escape closes and returns focus to the button (without closing
 * the panel, whose Escape closes the chat); Tab or a click elsewhere closes it.
 */
export function HandoffMenu({ label, items }: HandoffMenuProps) {
  const [isOpen, setOpen] = useState(false);
  const buttonRef = useRef<HTMLButtonElement>(null);
  const menuRef = useRef<HTMLDivElement>(null);
  const focusItem = (at: number): void => {
    const list = menuRef.current?.querySelectorAll<HTMLElement>('[role="menuitem"]');
    if (!list?.length) return;
    list[(at + list.length) % list.length]?.focus();
  };
  /** The item to focus once the opened menu has rendered. */
  const focusNext = useRef<number | undefined>(undefined);
  useLayoutEffect(() => {
    if (focusNext.current === undefined) return;
    focusItem(focusNext.current);
    focusNext.current = undefined;
  });
  const open = (at: number): void => {
    focusNext.current = at;
    setOpen(true);
  };
  const close = (refocus: boolean): void => {
    setOpen(false);
    if (refocus) buttonRef.current?.focus();
  };
  const choose = (item: MenuItem): void => {
    if (item.isDisabled) return;
    close(true);
    item.onChoose();
  };
  /** The focused item's index; -1 when none. */
  const current = (): number => {
    const menu = menuRef.current;
    if (!menu) return -1;
    const focused = (menu.getRootNode() as ShadowRoot | Document).activeElement;
    return [...menu.querySelectorAll('[role="menuitem"]')].indexOf(focused as Element);
  };

  return (
    <div
      class="menu"
      onFocusOut={(event) => {
        const next = event.relatedTarget as Node | null;
        if (isOpen && !(next && event.currentTarget.contains(next))) setOpen(false);
      }}
    >
      <button
        ref={buttonRef}
        type="button"
        class="menu-button"
        aria-label={label}
        aria-haspopup="menu"
        aria-expanded={isOpen}
        aria-controls={MENU_ID}
        onClick={() => (isOpen ? close(false) : open(0))}
        onKeyDown={(event) => {
          if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
            event.preventDefault();
            open(event.key === 'ArrowDown' ? 0 : -1);
          }
        }}
      >
        <svg viewBox="0 0 24 24" width="20" height="20" aria-hidden="true" focusable="false">
          <circle cx="5" cy="12" r="2" />
          <circle cx="12" cy="12" r="2" />
          <circle cx="19" cy="12" r="2" />
        </svg>
      </button>
      <div
        ref={menuRef}
        id={MENU_ID}
        class="menu-list"
        role="menu"
        aria-label={label}
        hidden={!isOpen}
        onKeyDown={(event) => {
          const at = current();
          const keys: Record<string, () => void> = {
            ArrowDown: () => focusItem(at + 1),
            ArrowUp: () => focusItem(at - 1),
            Home: () => focusItem(0),
            End: () => focusItem(-1),
            Escape: () => close(true),
            Tab: () => setOpen(false),
          };
          const run = keys[event.key];
          if (!run) return;
          if (event.key !== 'Tab') {
            event.preventDefault();
            // Escape here closes the menu only: the panel's handler would close the chat.
            event.stopPropagation();
          }
          run();
        }}
      >
        {items.map((item) => (
          <div
            key={item.label}
            role="menuitem"
            class="menu-item"
            tabIndex={-1}
            aria-disabled={item.isDisabled || undefined}
            onClick={() => choose(item)}
            onKeyDown={(event) => {
              if (event.key !== 'Enter' && event.key !== ' ') return;
              event.preventDefault();
              choose(item);
            }}
          >
            {item.label}
          </div>
        ))}
      </div>
    </div>
  );
}
