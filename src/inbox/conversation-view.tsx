import type { InboxConversationResponse } from '../protocol/inbox';
import { formatDateTime, messageCountText, userDataValueText } from './format';
import { Transcript } from './transcript';
import { WebhookCalls } from './webhook-calls';

/** One conversation: what the page told the assistant about the shopper, and everything that was said. */
export function ConversationView({ data }: { data: InboxConversationResponse }) {
  const { conversation, messages } = data;
  const userData = Object.entries(conversation.userData ?? {});
  return (
    <article class="conversation" aria-labelledby="conversation-title">
      <h2 id="conversation-title">Conversation</h2>
      <p class="conversation-meta">
        <span class="mono">{conversation.id}</span> · started{' '}
        <time dateTime={conversation.createdAt}>{formatDateTime(conversation.createdAt)}</time> ·{' '}
        {messageCountText(conversation.messageCount)}
      </p>

      <section aria-labelledby="customer-title">
        <h3 id="customer-title">Verified customer</h3>
        {conversation.user ? (
          <p class="customer">
            <span class="mono">{conversation.user.id}</span>
            {conversation.user.name && ` · ${conversation.user.name}`}
            {conversation.user.email && ` · ${conversation.user.email}`}
          </p>
        ) : (
          <p class="empty">Not signed in: nothing below is verified.</p>
        )}
      </section>

      <section aria-labelledby="user-data-title">
        <h3 id="user-data-title">User data (from the page, unverified)</h3>
        {userData.length === 0 ? (
          <p class="empty">None.</p>
        ) : (
          <table class="user-data">
            <thead>
              <tr>
                <th scope="col">Key</th>
                <th scope="col">Value</th>
              </tr>
            </thead>
            <tbody>
              {userData.map(([key, value]) => (
                <tr key={key}>
                  <th scope="row">{key}</th>
                  <td class={value === null || typeof value !== 'string' ? 'literal' : undefined}>
                    {userDataValueText(value)}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </section>

      <section aria-labelledby="instructions-title">
        <h3 id="instructions-title">Custom instructions</h3>
        {conversation.customInstructions ? (
          <p class="text instructions">{conversation.customInstructions}</p>
        ) : (
          <p class="empty">None.</p>
        )}
      </section>

      <section aria-labelledby="transcript-title">
        <h3 id="transcript-title">Transcript</h3>
        <Transcript messages={messages} />
      </section>

      {data.webhookCalls && data.webhookCalls.length > 0 && (
        <section aria-labelledby="webhook-calls-title">
          <h3 id="webhook-calls-title">Webhook calls</h3>
          <WebhookCalls calls={data.webhookCalls} />
        </section>
      )}
    </article>
  );
}
