import type { ComponentChildren, VNode } from 'preact';
import type { FieldIssue } from './settings-store';

// One field of the editors: its label, the control, help where a merchant needs it, and its messages beside it, all
// tied to the control (`aria-describedby`, `aria-invalid`) so a screen reader reads them with it. `data-path` carries
// the config file's path, by which the section finds the first field in error after a refused save.

/** The DOM id of the control for a config path: `actions[1].url` → `setting-actions-1-url`. */
export const fieldId = (path: string): string =>
  `setting-${path.replace(/[^A-Za-z0-9_]+/g, '-').replace(/-$/, '')}`;

export interface ControlProps {
  id: string;
  'aria-describedby'?: string;
  'aria-invalid'?: 'true';
  'data-path': string;
}

export interface FieldProps {
  path: string;
  label: ComponentChildren;
  help?: ComponentChildren;
  issues: readonly FieldIssue[];
  /** A checkbox: the box before its label, on one line. */
  isCheckbox?: boolean;
  /** Beside the label (a character count). */
  aside?: ComponentChildren;
  class?: string;
  children: (control: ControlProps) => VNode;
}

export function Field({
  path,
  label,
  help,
  issues,
  isCheckbox,
  aside,
  class: className,
  children,
}: FieldProps) {
  const id = fieldId(path);
  const helpId = help ? `${id}-help` : undefined;
  const issueIds = issues.map((_, i) => `${id}-issue-${i}`);
  // The messages first: a screen reader says what is wrong before the general help.
  const describedBy = [...issueIds, helpId].filter(Boolean).join(' ') || undefined;
  const control = children({
    id,
    'aria-describedby': describedBy,
    'aria-invalid': issues.some((i) => i.level === 'error') ? 'true' : undefined,
    'data-path': path,
  });
  return (
    <div class={`field${isCheckbox ? ' field-checkbox' : ''}${className ? ` ${className}` : ''}`}>
      {isCheckbox ? (
        <div class="checkbox-line">
          {control}
          <label for={id}>{label}</label>
        </div>
      ) : (
        <>
          <div class="label-line">
            <label for={id}>{label}</label>
            {aside}
          </div>
          {control}
        </>
      )}
      {help && (
        <p id={helpId} class="field-help">
          {help}
        </p>
      )}
      <IssueList issues={issues} ids={issueIds} />
    </div>
  );
}

/** The service writes its messages as the config file's ("must not be empty"); beside a field they start a sentence. */
const sentence = (message: string) => message.charAt(0).toUpperCase() + message.slice(1);

/** The messages of a field or a group, each with its id for `aria-describedby`. */
export function IssueList({ issues, ids }: { issues: readonly FieldIssue[]; ids: readonly string[] }) {
  return (
    <>
      {issues.map((issue, i) => (
        <p key={ids[i]} id={ids[i]} class={`field-issue field-${issue.level}`}>
          <span class="issue-kind">{issue.level === 'error' ? 'Error:' : 'Warning:'}</span>{' '}
          {sentence(issue.message)}
        </p>
      ))}
    </>
  );
}

/** "123 / 10,000 characters", marked when over. */
export function CharCount({ id, count, max }: { id?: string; count: number; max: number }) {
  return (
    <span id={id} class={`char-count${count > max ? ' is-over' : ''}`}>
      {count.toLocaleString('en')} / {max.toLocaleString('en')} characters
    </span>
  );
}

/** Moves the focus to an element once it is rendered (after an add, a remove, a move). */
export function focusSoon(selector: string): void {
  requestAnimationFrame(() => document.querySelector<HTMLElement>(selector)?.focus());
}
