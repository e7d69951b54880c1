// The chat's view, a chunk of its own (DESIGN "Bytes"): the panel, the message list and the composer. The first chunk
// holds only what the launcher needs, so until `service:ready` no chat code is even fetched; mount.ts imports this at
// idle after ready, or at the first open when that comes sooner. The conversation with the service (the network) is
// another chunk, src/widget/chat/conversation.ts, which mount.ts loads when there is one to show or send.
import { computed } from '@preact/signals';
import { useMemo } from 'preact/hooks';
import type { MessagePart } from '../protocol';
import type { ChatViewProps } from './app-props';
import { Composer } from './composer';
import { MessageList } from './message-list';
import { Panel } from './panel';
import panelCss from './panel.css?inline';
import { PartView, partsCss } from './parts';
import { css as choicesCss } from './parts/choices-part';

export { prefetchParts } from './parts';

/** The chunk's stylesheet, adopted by the shadow root when the chunk arrives. */
export const css = panelCss + partsCss + choicesCss;

export function ChatView({
  store,
  strings,
  isOpen,
  panelRef,
  inputRef,
  onClose,
  onRetry,
  onLinkClick,
  cardActions,
}: ChatViewProps) {
  const config = store.config.value;
  const linkTarget = config.linkTarget;
  const onAnswer = useMemo(
    () => (id: string, answer: 'yes' | 'no') => store.answer(id, answer, strings[answer]),
    [store, strings],
  );
  const renderPart = useMemo(
    () =>
      (part: MessagePart, index: number): preact.ComponentChild => (
        <PartView
          key={index}
          part={part}
          strings={strings}
          linkTarget={linkTarget}
          onLinkClick={onLinkClick}
          confirmations={store.confirmations}
          onAnswer={onAnswer}
          openChoices={store.openChoices}
          onChoose={store.send}
          cardActions={cardActions}
        />
      ),
    [strings, linkTarget, onLinkClick, onAnswer, cardActions],
  );
  // The starters, as a choices part of their own, answerable while the conversation is empty.
  const starters = config.starters;
  const startersPart = useMemo<MessagePart | undefined>(
    () => (starters?.length ? { type: 'choices', options: starters } : undefined),
    [starters],
  );
  const startersOpen = useMemo(
    () => computed(() => new Set(startersPart ? [startersPart] : [])),
    [startersPart],
  );
  const addons = store.addons.value;
  const proactive = store.proactive.value;
  const isEmpty = store.messages.value.length === 0;
  const trailing = (
    <>
      {proactive && <p class="bubble assistant">{proactive}</p>}
      {isEmpty && startersPart && (
        <PartView
          part={startersPart}
          strings={{ ...strings, choices: strings.starters }}
          linkTarget={linkTarget}
          onLinkClick={onLinkClick}
          openChoices={startersOpen}
          onChoose={store.send}
        />
      )}
    </>
  );
  return (
    <Panel
      isOpen={isOpen}
      title={config.title}
      strings={strings}
      panelRef={panelRef}
      isInline={store.isInline.value}
      onClose={onClose}
      tools={addons && <addons.Header />}
    >
      {addons && <addons.Status />}
      <MessageList
        isOpen={isOpen}
        greeting={config.greeting}
        status={store.status}
        messages={store.messages}
        announcement={store.announcement}
        strings={strings}
        renderPart={renderPart}
        onRetry={onRetry}
        addons={addons}
        trailing={trailing}
      />
      <Composer
        draft={store.draft}
        strings={strings}
        inputRef={inputRef}
        onDraft={store.setDraft}
        onSend={() => store.send(store.draft.peek())}
      />
    </Panel>
  );
}
