import { type Signal, signal } from '@preact/signals';
import type { HandoffStrings } from './handoff-strings';

// Issue 33: an email address, asked for in the chat under the status line, for one of two things:
// - `contact`: after "Talk to a person" when nobody is at work, so that the agent's reply reaches the shopper after
//   they close the tab (`POST …/contact`). Optional (one press hides it), with the store's privacy line.
// - `transcript`: "Email me this conversation" from the panel's menu (`POST …/transcript`), when no address was left.
// Either way the chat then says where the email will go.

export type EmailPurpose = 'contact' | 'transcript';

export type ContactState =
  | { step: 'hidden' }
  | {
      step: 'offered';
      purpose: EmailPurpose;
      error?: 'invalid' | 'failed';
      isSending?: boolean;
      privacyUrl?: string;
    }
  | { step: 'sent'; purpose: EmailPurpose; email: string };

export type LeaveContact = (email: string, purpose: EmailPurpose) => Promise<'ok' | 'invalid' | 'failed'>;

export const contactState = (): Signal<ContactState> => signal<ContactState>({ step: 'hidden' });

/**
 * The form takes its height from the messages under it: a shopper who was reading the newest message (the promise
 * that nobody is free, which is why the form is offered) keeps it in view. A ref callback: it runs as the form mounts,
 * with the list already shorter by the form's height. Here and not in the message list (a resize observer there would
 * cover every change of its height): the list is in the bytes until the chat opens, which have no room for it.
 */
const keepNewestInView = (form: HTMLElement | null): void => {
  const list = form?.parentElement?.querySelector<HTMLElement>('.messages');
  if (form && list && list.scrollHeight - list.scrollTop - list.clientHeight - form.offsetHeight < NEWEST_PX)
    list.scrollTop = list.scrollHeight;
};
/**
 * How close to the bottom the shopper was, the form's height aside: the list's own 48 px (message-list.tsx
 * `PINNED_PX`) and the status line ("Waiting for a person…", about 37 px), which often arrives in the same render.
 */
const NEWEST_PX = 80;

const FIELD_ID = 'service-contact-email';
const NOTE_ID = 'service-contact-note';
const ERROR_ID = 'service-contact-error';

export function ContactOffer({
  state,
  words,
  leave,
}: {
  state: Signal<ContactState>;
  words: HandoffStrings;
  leave: LeaveContact;
}) {
  const now = state.value;
  if (now.step === 'hidden') return null;
  const isContact = now.purpose === 'contact';
  if (now.step === 'sent')
    return (
      <p class="contact-done" role="status">
        {(isContact ? words.contactSent : words.transcriptSent).replace('{email}', now.email)}
      </p>
    );
  const submit = async (event: Event): Promise<void> => {
    event.preventDefault();
    if (now.isSending) return;
    const form = event.currentTarget as HTMLFormElement;
    const input = form.elements.namedItem('email') as HTMLInputElement;
    const email = input.value.trim();
    // The browser's own check first (type="email"): the service holds addresses to a stricter form still.
    if (!email || !input.checkValidity()) {
      state.value = { ...now, error: 'invalid' };
      input.focus();
      return;
    }
    const { purpose, privacyUrl } = now;
    state.value = { step: 'offered', purpose, isSending: true, privacyUrl };
    const outcome = await leave(email, purpose);
    state.value =
      outcome === 'ok'
        ? { step: 'sent', purpose, email }
        : { step: 'offered', purpose, error: outcome, privacyUrl };
    if (outcome !== 'ok') input.focus();
  };
  const error = now.error && (now.error === 'invalid' ? words.contactInvalid : words.contactFailed);
  return (
    <form ref={keepNewestInView} class="contact" onSubmit={(event) => void submit(event)} noValidate>
      <label for={FIELD_ID} class="contact-label">
        {isContact ? words.contactLabel : words.transcriptLabel}
      </label>
      <div class="contact-row">
        <input
          id={FIELD_ID}
          name="email"
          type="email"
          autocomplete="email"
          inputMode="email"
          maxLength={254}
          required
          aria-describedby={error ? `${ERROR_ID} ${NOTE_ID}` : NOTE_ID}
          aria-invalid={error ? true : undefined}
        />
        <button type="submit" class="contact-send" disabled={now.isSending}>
          {words.contactSend}
        </button>
      </div>
      {error && (
        <p id={ERROR_ID} class="contact-error" role="alert">
          {error}
        </p>
      )}
      <p id={NOTE_ID} class="contact-note">
        {isContact ? words.contactNote : words.transcriptNote}{' '}
        {now.privacyUrl && (
          <a href={now.privacyUrl} target="_blank" rel="noopener noreferrer">
            {words.privacyPolicy}
          </a>
        )}
      </p>
      <button type="button" class="contact-later" onClick={() => (state.value = { step: 'hidden' })}>
        {isContact ? words.contactLater : words.cancel}
      </button>
    </form>
  );
}
