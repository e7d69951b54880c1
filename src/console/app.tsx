import { fillCanned } from './canned-text';
import { CatalogSection } from './catalog/catalog-section';
import { ConversationView } from './conversation-view';
import { EventsSection } from './events/events-section';
import { InsightsSection } from './insights/insights-section';
import { KeyForm } from './key-form';
import { NotifySettings } from './notify-settings';
import { QueuePanel } from './queue-panel';
import { SettingsSection } from './settings/settings-section';
import type { ConsoleStore } from './store';

const ROLE_TEXT = { agent: 'Agent', admin: 'Admin' } as const;

/**
 * The console: the key form until a key is accepted; then a top bar (widget, who is signed in, Sign out), the
 * sections' navigation, and the section shown. Two polite live regions announce what arrives without moving focus.
 */
export function App({ store }: { store: ConsoleStore }) {
  const me = store.me.value;
  if (store.key.value === null || me === null) {
    return (
      <KeyForm
        error={store.signInError.value}
        isBusy={store.isSigningIn.value}
        onSubmit={(key) => void store.signIn(key)}
      />
    );
  }
  const widgets = store.widgets.value;
  const section = store.section.value;
  return (
    <div class="console-frame">
      <a class="skip-link" href="#main">
        Skip to the content
      </a>
      <header class="topbar">
        <p class="brand">Console</p>
        {widgets.length > 0 && (
          <div class="widget-picker">
            <label for="widget-picker">Widget</label>
            <select
              id="widget-picker"
              value={store.widgetId.value ?? ''}
              onChange={(event) => {
                // Kept (unsaved settings the merchant keeps): the picker shows the widget still selected.
                if (!store.selectWidget(event.currentTarget.value))
                  event.currentTarget.value = store.widgetId.value ?? '';
              }}
            >
              {widgets.map((w) => (
                <option key={w.id} value={w.id}>
                  {w.title === w.id ? w.id : `${w.id} (${w.title})`}
                </option>
              ))}
            </select>
          </div>
        )}
        <p class="who">
          Signed in as <strong class="who-name">{me.name}</strong>{' '}
          <span class="role-badge">{ROLE_TEXT[me.role]}</span>
        </p>
        <div class="presence-picker">
          <label for="presence-status">Status</label>
          <select
            id="presence-status"
            value={store.presenceStatus.value}
            onChange={(event) => store.setPresence(event.currentTarget.value === 'away' ? 'away' : 'online')}
          >
            <option value="online">Available</option>
            <option value="away">Away</option>
          </select>
        </div>
        <NotifySettings notifier={store.notifier} />
        <button type="button" class="secondary" onClick={() => store.signOut()}>
          Sign out
        </button>
      </header>
      <nav class="sections" aria-label="Sections">
        <ul>
          {store.sections().map((s) => (
            <li key={s.id}>
              <a
                href={`#${s.id}`}
                aria-current={s.id === section ? 'page' : undefined}
                onClick={(event) => {
                  event.preventDefault();
                  store.showSection(s.id);
                }}
              >
                {s.label}
              </a>
            </li>
          ))}
        </ul>
      </nav>
      <main id="main" tabIndex={-1}>
        {section === 'conversations' && <ConversationsSection store={store} />}
        {section === 'insights' && (
          <InsightsSection
            store={store.insights}
            widgetId={store.widgetId.value}
            onAddToKnowledge={(question) => store.addToKnowledge(question)}
          />
        )}
        {section === 'catalog' && <CatalogSection store={store.catalog} widgetId={store.widgetId.value} />}
        {section === 'settings' && <SettingsSection store={store.settings} preview={store.preview} />}
        {section === 'events' && <EventsSection store={store.events} widgetId={store.widgetId.value} />}
      </main>
      <div class="visually-hidden" role="status" aria-live="polite" data-live="queue">
        {store.queue.announcement.value}
      </div>
      <div class="visually-hidden" role="log" aria-live="polite" data-live="conversation">
        {store.conversation.announcement.value}
      </div>
    </div>
  );
}

/** The agents' section: the queue beside the open conversation (one pane at a time on narrow windows). */
function ConversationsSection({ store }: { store: ConsoleStore }) {
  const selectedId = store.conversation.selectedId.value;
  const me = store.me.value;
  if (me === null) return null;
  const widget = store.widgets.value.find((w) => w.id === store.widgetId.value);
  return (
    <>
      <h1 class="visually-hidden">Conversations</h1>
      {store.widgets.value.length === 0 && <p class="empty">This service has no widgets.</p>}
      <div class={`layout${selectedId ? ' has-selection' : ''}`}>
        <QueuePanel
          queue={store.queue}
          selectedId={selectedId}
          onOpen={(id) => void store.conversation.open(id)}
          me={me.id}
        />
        <section class="detail-pane" aria-label="Selected conversation">
          <ConversationView
            store={store.conversation}
            role={me.role}
            canned={widget?.cannedReplies}
            fill={(text) =>
              fillCanned(text, {
                conversation: store.conversation.conversation.value,
                agentName: me.name,
                storeName: widget?.title ?? '',
              })
            }
            onBack={() => {
              const id = selectedId;
              store.conversation.close();
              // Back where the agent was: the row of the conversation just left.
              requestAnimationFrame(() =>
                document
                  .querySelector<HTMLElement>(`[data-conversation-id="${CSS.escape(id ?? '')}"]`)
                  ?.focus(),
              );
            }}
          />
        </section>
      </div>
    </>
  );
}
