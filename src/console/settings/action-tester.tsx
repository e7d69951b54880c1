import { createContext } from 'preact';
import { useContext, useId, useRef, useState } from 'preact/hooks';
// The service's own request builder (pure: no I/O), so the request shown is the one the service sends, not a copy.
import { buildActionRequest } from '../../protocol/action-request';
import { type ActionSettings, PREVIEW_HEADER } from '../../protocol/widget-settings';
import { MessagePart } from '../message-part';
import type { ActionTestResult, PreviewStore } from './preview-store';

/** The chat preview's store, for the editors that use it (the action tester); absent in a section without preview. */
export const PreviewContext = createContext<PreviewStore | null>(null);

type Values = Record<string, string | boolean>;

/** As the parameter editor's Type menu names them. */
const TYPE_TEXT = { string: 'text', number: 'number', boolean: 'yes or no' } as const;

/** The form's values as the action's typed parameters; an empty field is left out (the service says if required). */
export function typedParams(
  action: ActionSettings,
  values: Values,
): Record<string, string | number | boolean> {
  const params: Record<string, string | number | boolean> = {};
  for (const p of action.parameters ?? []) {
    const value = values[p.name];
    if (p.type === 'boolean') params[p.name] = value === true;
    else if (typeof value === 'string' && value.trim() !== '')
      params[p.name] = p.type === 'number' ? Number(value) : value;
  }
  return params;
}

/** The request as the service will send it (method, URL with the parameters filled, JSON body), or why it cannot. */
export function requestPreview(action: ActionSettings, params: Record<string, string | number | boolean>) {
  return buildActionRequest(
    {
      name: action.name,
      method: action.method ?? 'POST',
      url: action.url,
      parameters: action.parameters ?? [],
    },
    params,
    { widgetId: 'preview', conversationId: 'preview', requestId: 'preview' },
  );
}

/**
 * "Test": a small form with one typed input per parameter; "Call" stores the draft first, then calls the action for
 * real through the service (`draft: true`, so an unsaved or disabled action works) and shows the request, the HTTP
 * status, what the AI reads and the card the shopper sees, or the error. The result is announced (aria-live).
 */
export function ActionTester({ action }: { action: ActionSettings }) {
  const preview = useContext(PreviewContext);
  const [isOpen, setOpen] = useState(false);
  const [values, setValues] = useState<Values>({});
  const [isCalling, setCalling] = useState(false);
  const [result, setResult] = useState<{ sent: string; outcome: ActionTestResult } | null>(null);
  const uid = useId();
  const statusRef = useRef<HTMLParagraphElement>(null);
  const formRef = useRef<HTMLFormElement>(null);
  const openRef = useRef<HTMLButtonElement>(null);
  if (preview === null) return null;
  const name = action.name.trim() || 'New action';
  const parameters = action.parameters ?? [];
  const params = typedParams(action, values);
  const request = action.url.trim() ? requestPreview(action, params) : null;
  const requestLine = request?.ok ? `${request.value.method} ${request.value.url}` : null;

  const call = async () => {
    setCalling(true);
    const outcome = await preview.testAction(action.name, params);
    setCalling(false);
    setResult({ sent: requestLine ?? '', outcome });
    // The answer is below the form: brought into view (the focus stays on Call, to call again).
    requestAnimationFrame(() => statusRef.current?.scrollIntoView?.({ block: 'nearest' }));
  };

  if (!isOpen)
    return (
      <div class="action-tester">
        <button
          type="button"
          class="secondary small"
          ref={openRef}
          aria-expanded="false"
          aria-label={`Test this action: ${name}`}
          onClick={() => {
            setOpen(true);
            // Into the form: its first input, or Call when the action has no parameters.
            requestAnimationFrame(() =>
              formRef.current?.querySelector<HTMLElement>('input, button[type="submit"]')?.focus(),
            );
          }}
        >
          Test this action
        </button>
      </div>
    );

  return (
    <div class="action-tester is-open">
      <form
        ref={formRef}
        class="tester-form"
        aria-label={`Test ${name}`}
        onSubmit={(e) => {
          e.preventDefault();
          if (!isCalling) void call();
        }}
      >
        <div class="tester-head">
          <h3>Test {name}</h3>
          <button
            type="button"
            class="secondary small"
            aria-expanded="true"
            onClick={() => {
              setOpen(false);
              setResult(null);
              requestAnimationFrame(() => openRef.current?.focus());
            }}
          >
            Close test
          </button>
        </div>
        <p class="field-help">
          Calls your endpoint for real with your unsaved changes, marked with <code>{PREVIEW_HEADER}: 1</code>
          .
        </p>
        {parameters.length === 0 && <p class="field-help">This action has no parameters.</p>}
        {parameters.map((p) => {
          const id = `${uid}-${p.name}`;
          const required = p.required || action.url.includes(`{${p.name}}`);
          const label = (
            <>
              {p.name || '(unnamed)'} <span class="param-type">{TYPE_TEXT[p.type]}</span>
              {required && <span class="required-mark"> (required)</span>}
            </>
          );
          return p.type === 'boolean' ? (
            <div class="field field-checkbox" key={p.name}>
              <div class="checkbox-line">
                <input
                  id={id}
                  type="checkbox"
                  checked={values[p.name] === true}
                  onChange={(e) => setValues({ ...values, [p.name]: e.currentTarget.checked })}
                />
                <label for={id}>{label}</label>
              </div>
            </div>
          ) : (
            <div class="field" key={p.name}>
              <label for={id}>{label}</label>
              <input
                id={id}
                type={p.type === 'number' ? 'number' : 'text'}
                step={p.type === 'number' ? 'any' : undefined}
                required={required}
                aria-describedby={p.description ? `${id}-help` : undefined}
                value={typeof values[p.name] === 'string' ? (values[p.name] as string) : ''}
                onInput={(e) => setValues({ ...values, [p.name]: e.currentTarget.value })}
              />
              {p.description && (
                <p id={`${id}-help`} class="field-help">
                  {p.description}
                </p>
              )}
            </div>
          );
        })}
        <p class="tester-request">
          <span class="tester-label">Request</span>{' '}
          {request === null ? (
            <span class="muted">Give the action a URL first.</span>
          ) : request.ok ? (
            <code class="mono">{requestLine}</code>
          ) : (
            <span class="muted">not ready: {request.error.message}.</span>
          )}
          {request?.ok && request.value.body !== undefined && (
            <>
              <br />
              <span class="tester-label">Body</span> <code class="mono">{request.value.body}</code>
            </>
          )}
        </p>
        <button type="submit" disabled={isCalling || !action.name.trim()}>
          {isCalling ? 'Calling…' : 'Call'}
        </button>
      </form>
      {/* Announced: one short line (calling, the status, the error); the answer itself is read from the page. */}
      <p class="tester-status" role="status" ref={statusRef}>
        {isCalling ? 'Calling…' : result ? summary(result.outcome) : ''}
      </p>
      {result && !isCalling && (
        <div class="tester-result">
          <TestResult sent={result.sent} outcome={result.outcome} />
        </div>
      )}
    </div>
  );
}

function summary(outcome: ActionTestResult): string {
  if (!outcome.ok) return `Not tested: ${outcome.message}`;
  const r = outcome.value;
  const status = r.status === null ? 'no HTTP answer' : `HTTP ${r.status}`;
  return r.ok ? `Answered, ${status}.` : `Failed, ${status}: ${r.error.code}.`;
}

function TestResult({ sent, outcome }: { sent: string; outcome: ActionTestResult }) {
  if (!outcome.ok) return <p class="error">Not tested: {outcome.message}</p>;
  const r = outcome.value;
  return (
    <div class="tester-answer">
      {sent && (
        <p>
          <span class="tester-label">Sent</span> <code class="mono">{sent}</code>
        </p>
      )}
      {outcome.usedLastValidDraft && (
        <p class="field-help">Your changes have errors: this called the action of your last valid draft.</p>
      )}
      {r.ok ? (
        <>
          <h4>What the AI reads</h4>
          <section
            class="ai-text"
            aria-label="What the AI reads"
            // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrolling region must be reachable by keyboard (WCAG 2.1.1, axe scrollable-region-focusable)
            tabIndex={0}
          >
            <pre>{r.aiText}</pre>
          </section>
          <h4>What the shopper sees</h4>
          {/* A text answer is no card: the assistant tells it in its own words (the widget renders its Markdown), so
              the raw text here would mislead. */}
          {r.part && r.part.type !== 'text' ? (
            <div class="tester-card">
              <MessagePart part={r.part} />
            </div>
          ) : (
            <p class="field-help">
              No card: the assistant tells the shopper in words, from what the AI reads above.
            </p>
          )}
        </>
      ) : (
        <p class="error">
          <code>{r.error.code}</code>: {r.error.message}
        </p>
      )}
    </div>
  );
}
