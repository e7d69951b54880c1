import { type Signal, signal } from '@preact/signals';
import type { HandoffStrings } from './handoff-strings';

// Issue 34 (DESIGN "The support team's day"): after a person of the store's team handed the conversation back or
// closed it (the mode event's `askRating`), the chat asks "How did we do?": 1 to 5 and an optional comment, `POST
// …/rating`. Optional: "No thanks" hides it; a later hand-back asks again (the service keeps the last rating).

export type RatingState =
  | { step: 'hidden' }
  | { step: 'asked'; isSending?: boolean; isFailed?: boolean }
  | { step: 'sent' };

export type SendRating = (score: number, comment: string) => Promise<boolean>;

export const ratingState = (): Signal<RatingState> => signal<RatingState>({ step: 'hidden' });

const COMMENT_ID = 'service-rating-comment';
const QUESTION_ID = 'service-rating-question';
/** Each star's name is its number: a screen reader says "4, radio button, 4 of 5" in the shopper's language. */
const SCORES = [1, 2, 3, 4, 5];

export function RatingCard({
  state,
  words,
  send,
}: {
  state: Signal<RatingState>;
  words: HandoffStrings;
  send: SendRating;
}) {
  const now = state.value;
  if (now.step === 'hidden') return null;
  if (now.step === 'sent')
    return (
      <p class="contact-done" role="status">
        {words.rateThanks}
      </p>
    );
  return (
    <form
      class="contact rating"
      onSubmit={(event) => {
        event.preventDefault();
        const data = new FormData(event.currentTarget);
        const score = Number(data.get('score'));
        if (!score || now.isSending) return;
        const comment = String(data.get('comment')).trim();
        state.value = { step: 'asked', isSending: true };
        void send(score, comment).then((isSent) => {
          state.value = isSent ? { step: 'sent' } : { step: 'asked', isFailed: true };
        });
      }}
    >
      <p id={QUESTION_ID} class="contact-label">
        {words.rateQuestion}
      </p>
      <div class="stars" role="radiogroup" aria-labelledby={QUESTION_ID}>
        {SCORES.map((n) => (
          <label key={n} class="star">
            <input type="radio" name="score" value={n} required aria-label={String(n)} />
            <span aria-hidden="true">★</span>
          </label>
        ))}
      </div>
      <label for={COMMENT_ID} class="contact-label">
        {words.rateComment}
      </label>
      <div class="contact-row">
        <input id={COMMENT_ID} name="comment" maxLength={1000} autoComplete="off" />
        <button type="submit" class="contact-send" disabled={now.isSending}>
          {words.contactSend}
        </button>
      </div>
      {now.isFailed && (
        <p class="contact-error" role="alert">
          {words.contactFailed}
        </p>
      )}
      <button type="button" class="contact-later" onClick={() => (state.value = { step: 'hidden' })}>
        {words.contactLater}
      </button>
    </form>
  );
}
