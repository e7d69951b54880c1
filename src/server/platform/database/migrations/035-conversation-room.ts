import type { Migration } from './migration';

// Issue 32: a turn rewrites its conversation's row twice (the shopper's message, the reply's end), and every rewrite
// was a new row version with an entry in each of the row's indexes, because a page full of rows had no room for the
// new version beside the old one. A row rewritten in place (PostgreSQL's heap-only update, "HOT") adds no index entry,
// and its page's old versions are pruned as the page is read, without waiting for a vacuum. It needs two things: no
// indexed column changes (the reply's end now changes only `next_seq`, and `last_answer_at` only when the reply
// failed: chat-store.ts), and room on the page. 70 % leaves each page room for a few versions of its rows. A reply's
// row is rewritten once, at its end, with its whole text (`parts`, which changes no indexed column): one page in five
// of those was full, so messages keep a tenth of each page free for it. Only pages written from now on are filled so.
export const conversationRoom: Migration = {
  id: 35,
  name: 'conversation-room',
  sql: `
ALTER TABLE conversations SET (fillfactor = 70);
ALTER TABLE messages SET (fillfactor = 90);
`,
};
