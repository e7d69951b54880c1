const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Ids the database makes are UUIDs: anything else is unknown without asking it (and would make PostgreSQL throw). */
export const isUuid = (id: string): boolean => UUID.test(id);
