import type { Migration } from './migration';

// Issue 20: a proactive message (`Service.showMessage`) is stored as the assistant's message just before the shopper's
// message that answers it, keyed `proactive-<that message's clientMessageId>` so a repeated request never stores it
// twice (the unique key on (conversation_id, client_message_id) does it, concurrent requests included). Assistant
// replies still carry no client id.
export const proactiveMessages: Migration = {
  id: 20,
  name: 'proactive-messages',
  sql: `
ALTER TABLE messages DROP CONSTRAINT messages_assistant_shape;
ALTER TABLE messages ADD CONSTRAINT messages_assistant_shape
  CHECK (role = 'user' OR client_message_id IS NULL OR client_message_id LIKE 'proactive-%');
`,
};
