// The proactive message's bubble (`Service.showMessage`), a chunk of its own: most pages never show one, so its code
// and styles load only when a page does (mount.ts), and never count against the first chunk.
import { Icon } from './icon';
import css from './nudge.css?inline';

export { css };

export interface NudgeProps {
  text: string;
  /** Named for screen readers: the close button's label. */
  dismissLabel: string;
  onOpen: () => void;
  onDismiss: () => void;
}

/** A bubble above the closed launcher: its text opens the chat, × dismisses it. */
export function Nudge({ text, dismissLabel, onOpen, onDismiss }: NudgeProps) {
  return (
    <div class="nudge">
      <button type="button" class="nudge-text" onClick={onOpen}>
        {text}
      </button>
      <button type="button" class="nudge-close" aria-label={dismissLabel} onClick={onDismiss}>
        <Icon name="close" />
      </button>
    </div>
  );
}
