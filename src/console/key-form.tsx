import { useState } from 'preact/hooks';

export interface KeyFormProps {
  error: string | null;
  isBusy: boolean;
  onSubmit(key: string): void;
}

/**
 * Asks for the agent's key (an agent's from the service's `agents`, or the `adminKey`). The page cannot receive it with
 * the navigation (no Bearer header there), never puts it in a URL, and keeps it in sessionStorage only. The form never
 * submits anywhere (CSP `form-action 'none'` backs that up).
 */
export function KeyForm({ error, isBusy, onSubmit }: KeyFormProps) {
  const [value, setValue] = useState('');
  return (
    <main class="sign-in">
      <h1>Console</h1>
      <p>Answer shoppers who asked for a person, and read every conversation with its context.</p>
      <form
        method="post"
        onSubmit={(event) => {
          event.preventDefault();
          if (!isBusy) onSubmit(value);
        }}
      >
        <label for="agent-key">Your key</label>
        <input
          id="agent-key"
          name="agent-key"
          type="password"
          autoComplete="current-password"
          spellcheck={false}
          required
          value={value}
          aria-invalid={error ? 'true' : undefined}
          aria-describedby={error ? 'agent-key-error agent-key-hint' : 'agent-key-hint'}
          onInput={(event) => setValue(event.currentTarget.value)}
        />
        <p id="agent-key-hint" class="hint">
          Your agent key, or the service's <code>adminKey</code>. It stays in this tab until you sign out.
        </p>
        {error && (
          <p id="agent-key-error" class="error" role="alert">
            {error}
          </p>
        )}
        <button type="submit" disabled={isBusy}>
          {isBusy ? 'Checking…' : 'Sign in'}
        </button>
      </form>
    </main>
  );
}
