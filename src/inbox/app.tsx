import { ConversationList } from './conversation-list';
import { ConversationView } from './conversation-view';
import { KeyForm } from './key-form';
import type { InboxStore } from './store';

/** The inbox page: the key form until a key is accepted, then widget picker, conversation list and conversation. */
export function App({ store }: { store: InboxStore }) {
  if (store.key.value === null) {
    return (
      <KeyForm
        error={store.signInError.value}
        isBusy={store.isSigningIn.value}
        onSubmit={(key) => void store.signIn(key)}
      />
    );
  }
  const widgets = store.widgets.value;
  const listStatus = store.listStatus.value;
  return (
    <>
      <header class="topbar">
        <h1>Inbox</h1>
        {widgets.length > 0 && (
          <div class="widget-picker">
            <label for="widget-picker">Widget</label>
            <select
              id="widget-picker"
              value={store.widgetId.value ?? ''}
              onChange={(event) => store.selectWidget(event.currentTarget.value)}
            >
              {widgets.map((w) => (
                <option key={w.id} value={w.id}>
                  {w.title === w.id ? w.id : `${w.id} (${w.title})`}
                </option>
              ))}
            </select>
          </div>
        )}
        <button type="button" class="secondary" onClick={() => store.signOut()}>
          Sign out
        </button>
      </header>
      <main class="layout">
        <section class="list-pane" aria-labelledby="list-title">
          <div class="pane-head">
            <h2 id="list-title">Conversations</h2>
            <button
              type="button"
              class="secondary"
              disabled={listStatus === 'loading'}
              onClick={() => void store.refresh()}
            >
              Refresh
            </button>
          </div>
          {widgets.length === 0 && <p class="empty">This service has no widgets.</p>}
          <ConversationList
            conversations={store.conversations.value}
            selectedId={store.selectedId.value}
            onSelect={(id) => void store.openConversation(id)}
          />
          {listStatus === 'ready' && store.conversations.value.length === 0 && (
            <p class="empty">No conversations yet.</p>
          )}
          {listStatus === 'loading' && (
            <p class="status" role="status">
              Loading conversations…
            </p>
          )}
          {listStatus === 'error' && (
            <p class="error" role="alert">
              {store.listError.value}
            </p>
          )}
          {store.nextCursor.value !== null && listStatus !== 'loading' && (
            <button type="button" class="load-more" onClick={() => void store.loadMore()}>
              Load more
            </button>
          )}
        </section>
        <section class="detail-pane" aria-label="Selected conversation">
          <DetailPane store={store} />
        </section>
      </main>
    </>
  );
}

function DetailPane({ store }: { store: InboxStore }) {
  const status = store.detailStatus.value;
  const data = store.detail.value;
  if (status === 'loading')
    return (
      <p class="status" role="status">
        Loading the conversation…
      </p>
    );
  if (status === 'error')
    return (
      <p class="error" role="alert">
        {store.detailError.value}
      </p>
    );
  if (data) return <ConversationView data={data} />;
  return <p class="empty">Pick a conversation to read it.</p>;
}
