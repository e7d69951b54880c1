import { useState } from 'preact/hooks';

export interface KeyFormProps {
  error: string | null;
  isBusy: boolean;
  onSubmit(key: string): void;
}

/**
 * Asks for the admin key. The page cannot receive it with the navigation (no Bearer header there), and keeps it in
 * sessionStorage only. The form never submits anywhere (CSP `form-action 'none'` backs that up).
 */
export function KeyForm({ error, isBusy, onSubmit }: KeyFormProps) {
  const [value, setValue] = useState('');
  return (
    <main class="sign-in">
      <h1>Inbox</h1>
      <p>The agents' inbox lists the widget conversations with their user data and custom instructions.</p>
      <form
        method="post"
        onSubmit={(event) => {
          event.preventDefault();
          if (!isBusy) onSubmit(value);
        }}
      >
        <label for="admin-key">Admin key</label>
        <input
          id="admin-key"
          name="admin-key"
          type="password"
          autoComplete="current-password"
          spellcheck={false}
          required
          value={value}
          aria-invalid={error ? 'true' : undefined}
          aria-describedby={error ? 'admin-key-error' : 'admin-key-hint'}
          onInput={(event) => setValue(event.currentTarget.value)}
        />
        <p id="admin-key-hint" class="hint">
          The <code>adminKey</code> of the service's config. It stays in this tab until you sign out.
        </p>
        {error && (
          <p id="admin-key-error" class="error" role="alert">
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
