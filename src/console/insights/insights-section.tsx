import type { ComponentChildren } from 'preact';
import { useEffect } from 'preact/hooks';
import type { InsightsResponse, QuestionCount } from '../../protocol/insights';
import { DAY_METRICS, DayPanel } from './day-plot';
import {
  averageText,
  countText,
  durationText,
  NONE,
  percentText,
  plural,
  rangeText,
} from './insights-format';
import type { InsightsStore } from './insights-store';
import './insights.css';

/**
 * The merchant's Insights page (admin only, issue 35): does the assistant work? For the widget shown and a range of
 * days in the widget's time zone: the figures (conversations, resolved by the assistant, handed over, ratings, thumbs,
 * the median first human reply, add-to-cart), each per day as a plot with its table, the top questions, the questions
 * the assistant could not answer with "Add to knowledge", and the conversations as a CSV. Definitions: docs/insights.md.
 */
export function InsightsSection({
  store,
  widgetId,
  onAddToKnowledge,
}: {
  store: InsightsStore;
  widgetId: string | null;
  /** Opens the knowledge editor with a new section titled with this question. */
  onAddToKnowledge: (question: string) => void;
}) {
  useEffect(() => {
    store.reset();
    void store.load();
  }, [store, widgetId]);

  const data = store.data.value;
  const status = store.status.value;
  const failure = store.failure.value;
  return (
    <div class="insights-page">
      <h1>Insights</h1>
      <p class="status">
        Does the assistant work? What shoppers asked, what the assistant resolved on its own, what went to a
        person, and what it could not answer
        {widgetId && (
          <>
            {' '}
            for <span class="mono">{widgetId}</span>
          </>
        )}
        .
      </p>
      <RangeForm store={store} timeZone={data?.timeZone ?? null} />
      {status === 'loading' && (
        <p class="status" data-state="loading">
          Loading the insights…
        </p>
      )}
      {failure && (
        <div class="error insights-failure" role="alert" data-failure={failure.kind}>
          <p>{failure.message}</p>
          {failure.kind !== 'forbidden' && (
            <button type="button" class="secondary small" onClick={() => void store.load()}>
              Try again
            </button>
          )}
        </div>
      )}
      {data &&
        (data.conversations === 0 ? (
          <EmptyState data={data} />
        ) : (
          <Results
            store={store}
            data={data}
            isBusy={status === 'loading'}
            onAddToKnowledge={onAddToKnowledge}
          />
        ))}
      <div class="visually-hidden" role="status" aria-live="polite" data-live="insights">
        {store.announcement.value}
      </div>
    </div>
  );
}

function RangeForm({ store, timeZone }: { store: InsightsStore; timeZone: string | null }) {
  const error = store.rangeError.value;
  const described = error ? 'insights-range-error' : undefined;
  return (
    <form
      class="insights-range"
      aria-label="Days shown"
      // The page's own message, tied to both dates, rather than the browser's bubble for an empty one.
      noValidate
      onSubmit={(event) => {
        event.preventDefault();
        void store.load();
      }}
    >
      <div class="range-fields">
        <DateField
          id="insights-from"
          label="From"
          value={store.from.value}
          error={error}
          described={described}
          onInput={store.setFrom}
        />
        <DateField
          id="insights-to"
          label="To"
          value={store.to.value}
          error={error}
          described={described}
          onInput={store.setTo}
        />
        <button type="submit">Show</button>
        {timeZone && (
          <p class="time-zone" data-time-zone={timeZone}>
            Days in {timeZone}
          </p>
        )}
      </div>
      {error && (
        <p id="insights-range-error" class="error" role="alert">
          {error}
        </p>
      )}
    </form>
  );
}

/** One end of the range: a date input, marked and described by the range's one message when it has one. */
function DateField(props: {
  id: string;
  label: string;
  value: string;
  error: string | null;
  described: string | undefined;
  onInput: (value: string) => void;
}) {
  return (
    <div class="range-field">
      <label for={props.id}>{props.label}</label>
      <input
        id={props.id}
        type="date"
        required
        value={props.value}
        aria-invalid={props.error ? 'true' : undefined}
        aria-describedby={props.described}
        onInput={(event) => props.onInput(event.currentTarget.value)}
      />
    </div>
  );
}

function EmptyState({ data }: { data: InsightsResponse }) {
  return (
    <section class="insights-empty" aria-labelledby="insights-empty-heading" data-state="empty">
      <h2 id="insights-empty-heading">No conversations in {rangeText(data)}</h2>
      <p>
        A conversation counts once the shopper has written in it. Pick a longer range, or check that the
        widget is on your store’s pages: Settings → Site lists the origins it may run on.
      </p>
    </section>
  );
}

function Results({
  store,
  data,
  isBusy,
  onAddToKnowledge,
}: {
  store: InsightsStore;
  data: InsightsResponse;
  isBusy: boolean;
  onAddToKnowledge: (question: string) => void;
}) {
  const isDownloading = store.isDownloading.value;
  return (
    <div class="insights-results" aria-busy={isBusy ? 'true' : undefined}>
      <div class="panel-head">
        <h2 id="insights-range-heading">{rangeText(data)}</h2>
        <button
          type="button"
          class="secondary"
          aria-disabled={isDownloading ? 'true' : undefined}
          aria-describedby="insights-csv-help"
          onClick={() => void store.downloadCsv()}
        >
          {isDownloading ? 'Downloading…' : 'Download CSV'}
        </button>
      </div>
      <p id="insights-csv-help" class="hint csv-hint">
        The CSV has one row per conversation of these days, with its outcome, rating, thumbs and first
        question.
      </p>
      {store.downloadError.value && (
        <p class="error" role="alert">
          {store.downloadError.value}
        </p>
      )}
      <Figures data={data} />
      <section class="insights-days" aria-labelledby="insights-days-heading">
        <h2 id="insights-days-heading">By day</h2>
        {DAY_METRICS.map((m) => (
          <DayPanel key={m.id} metric={m.id} days={data.days} />
        ))}
      </section>
      <div class="insights-questions">
        <TopQuestions questions={data.topQuestions} />
        <KnowledgeGaps questions={data.unanswered} onAdd={onAddToKnowledge} />
      </div>
    </div>
  );
}

/** One figure: what it counts, its value, and a line that says what it is out of. */
function Figure({
  id,
  label,
  value,
  note,
}: {
  id: string;
  label: string;
  value: ComponentChildren;
  note: string;
}) {
  return (
    <div class="figure" data-figure={id}>
      <dt>{label}</dt>
      <dd class="figure-value">{value}</dd>
      <dd class="figure-note">{note}</dd>
    </div>
  );
}

function Figures({ data }: { data: InsightsResponse }) {
  const total = data.conversations;
  const pending = data.pendingResolution;
  return (
    <section aria-labelledby="insights-figures-heading">
      <h2 id="insights-figures-heading" class="visually-hidden">
        Figures
      </h2>
      <dl class="figures">
        <Figure
          id="conversations"
          label="Conversations"
          value={countText(total)}
          note="in which the shopper wrote"
        />
        <Figure
          id="resolved"
          label="Resolved by the assistant"
          value={countText(data.resolvedByAssistant)}
          note={`${percentText(data.resolvedByAssistant, total)} of conversations${
            pending > 0 ? `; ${countText(pending)} more pending (answered under 24\u00a0h ago)` : ''
          }`}
        />
        <Figure
          id="handed-over"
          label="Handed over to a person"
          value={countText(data.handedOver)}
          note={`${percentText(data.handedOver, total)} of conversations`}
        />
        <Figure
          id="ratings"
          label="Rating of a person’s help"
          value={data.ratings.count > 0 ? `${averageText(data.ratings.average)} of 5` : NONE}
          note={data.ratings.count > 0 ? `from ${plural(data.ratings.count, 'rating')}` : 'No ratings yet'}
        />
        <Figure
          id="thumbs"
          label="Thumbs on answers"
          value={
            // Each count with its word on one line, on a narrow tile too.
            <>
              <span class="nowrap">{countText(data.thumbs.up)} up</span> ·{' '}
              <span class="nowrap">{countText(data.thumbs.down)} down</span>
            </>
          }
          note="under the assistant’s answers"
        />
        <Figure
          id="first-reply"
          label="Median first human reply"
          value={durationText(data.medianFirstHumanReplySeconds)}
          note={
            data.medianFirstHumanReplySeconds === null
              ? 'No one who asked for a person has had an answer yet'
              : 'from asking for a person to their first message'
          }
        />
        <Figure
          id="add-to-cart"
          label="Added to cart"
          value={countText(data.addToCart)}
          note="from the assistant’s product cards"
        />
      </dl>
    </section>
  );
}

function TopQuestions({ questions }: { questions: readonly QuestionCount[] }) {
  return (
    <section class="question-panel" aria-labelledby="top-questions-heading">
      <h2 id="top-questions-heading">Top questions</h2>
      <p class="hint">How shoppers opened their conversations, most asked first.</p>
      {questions.length === 0 ? (
        <p class="empty">No questions in these days.</p>
      ) : (
        <ol class="question-list">
          {questions.map((q) => (
            <li key={q.text}>
              <span class="question-text text">{q.text}</span>
              <span class="question-count">{plural(q.count, 'conversation')}</span>
            </li>
          ))}
        </ol>
      )}
    </section>
  );
}

function KnowledgeGaps({
  questions,
  onAdd,
}: {
  questions: readonly QuestionCount[];
  onAdd: (question: string) => void;
}) {
  return (
    <section class="question-panel" aria-labelledby="knowledge-gaps-heading">
      <h2 id="knowledge-gaps-heading">Knowledge gaps</h2>
      <p class="hint">
        Questions the assistant could not answer. Add the answer to its knowledge, and it answers them from
        then on.
      </p>
      {questions.length === 0 ? (
        <p class="empty">None: the assistant had an answer for every question in these days.</p>
      ) : (
        <ol class="question-list">
          {questions.map((q) => (
            <li key={q.text}>
              <span class="question-text text">{q.text}</span>
              <span class="question-count">{plural(q.count, 'conversation')}</span>
              <button
                type="button"
                class="secondary small"
                aria-label={`Add to knowledge: ${q.text}`}
                onClick={() => onAdd(q.text)}
              >
                Add to knowledge
              </button>
            </li>
          ))}
        </ol>
      )}
    </section>
  );
}
