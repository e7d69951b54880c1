import type { InboxConversation } from '../protocol/inbox';
import { userDataValueText } from './format';

/** What the page told the service about the shopper: identity (verified), user data, locale, where they are. */
export function ConversationContext({ conversation }: { conversation: InboxConversation }) {
  const userData = Object.entries(conversation.userData ?? {});
  const context = conversation.pageContext ?? null;
  return (
    <>
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

      <section aria-labelledby="locale-title">
        <h3 id="locale-title">Language</h3>
        {conversation.locale ? <p class="mono">{conversation.locale}</p> : <p class="empty">Not sent.</p>}
      </section>

      <section aria-labelledby="page-context-title">
        <h3 id="page-context-title">Page (from the page, unverified)</h3>
        {context === null ? (
          <p class="empty">Not sent.</p>
        ) : (
          <dl class="page-context">
            {context.page?.title && (
              <>
                <dt>Page</dt>
                <dd class="text">{context.page.title}</dd>
              </>
            )}
            {context.page?.url && (
              <>
                <dt>Address</dt>
                <dd class="text mono">{context.page.url}</dd>
              </>
            )}
            {context.product && (
              <>
                <dt>Product</dt>
                <dd class="text">
                  {context.product.name}
                  {context.product.price && ` · ${context.product.price}`}
                  {context.product.id && ` · ${context.product.id}`}
                </dd>
              </>
            )}
            {context.cart && (
              <>
                <dt>Cart</dt>
                <dd class="text">
                  {context.cart.items.map((i) => `${i.quantity ?? 1} × ${i.name}`).join(', ') || 'empty'}
                  {context.cart.total && ` · total ${context.cart.total}`}
                </dd>
              </>
            )}
          </dl>
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
    </>
  );
}
