import type { ComponentChildren } from 'preact';
import { useEffect, useRef } from 'preact/hooks';

export interface ConfirmDialogProps {
  title: string;
  children: ComponentChildren;
  confirmText: string;
  isBusy?: boolean;
  onConfirm(): void;
  onCancel(): void;
}

/**
 * A modal question (`<dialog>` opened with `showModal()`: the page behind is inert, the focus stays inside, Escape
 * cancels); the focus starts on Cancel, so Enter alone changes nothing. The caller puts the focus back where it was.
 */
export function ConfirmDialog({
  title,
  children,
  confirmText,
  isBusy,
  onConfirm,
  onCancel,
}: ConfirmDialogProps) {
  const ref = useRef<HTMLDialogElement>(null);
  const cancelRef = useRef<HTMLButtonElement>(null);
  useEffect(() => {
    const dialog = ref.current;
    if (!dialog) return;
    if (typeof dialog.showModal === 'function' && !dialog.open) dialog.showModal();
    else dialog.setAttribute('open', '');
    cancelRef.current?.focus();
    return () => {
      if (dialog.open && typeof dialog.close === 'function') dialog.close();
    };
  }, []);
  return (
    <dialog
      ref={ref}
      class="confirm-dialog"
      aria-labelledby="confirm-title"
      aria-describedby="confirm-body"
      onCancel={(e) => {
        e.preventDefault();
        onCancel();
      }}
    >
      <h2 id="confirm-title">{title}</h2>
      <div id="confirm-body">{children}</div>
      <div class="dialog-actions">
        <button type="button" ref={cancelRef} class="secondary" onClick={onCancel}>
          Cancel
        </button>
        <button type="button" disabled={isBusy} onClick={onConfirm}>
          {isBusy ? 'Working…' : confirmText}
        </button>
      </div>
    </dialog>
  );
}
