/** One schema change: plain PostgreSQL, run once, in its own transaction, in `id` order. Never edit an applied one. */
export interface Migration {
  id: number;
  name: string;
  sql: string;
}
