import type { Db } from './db';

/** What `countedDb` adds to: one increment per statement or transaction. */
export interface StatementCounter {
  statements: { inc(): void };
  transactions: { inc(): void };
}

/**
 * The same database, counting every statement (a query, an exec, a COPY) and every transaction it runs, inside
 * transactions too, into `counter`. Issue 32: what a turn costs the database is mostly how many round trips it makes;
 * `/metrics` shows the count, and the turn-cost bench divides it by the turns it ran. A transaction's own BEGIN and
 * COMMIT are not statements here: a transaction costs two round trips beside its statements.
 * @example
 * const db = countedDb(await openDatabase('embedded'), { statements: metrics.dbStatements, transactions: metrics.dbTransactions });
 */
export function countedDb(db: Db, counter: StatementCounter): Db {
  return {
    query(sql, params) {
      counter.statements.inc();
      return db.query(sql, params);
    },
    exec(sql) {
      counter.statements.inc();
      return db.exec(sql);
    },
    copyFrom(table, columns, rows, options) {
      counter.statements.inc();
      return db.copyFrom(table, columns, rows, options);
    },
    transaction(fn) {
      counter.transactions.inc();
      return db.transaction((tx) => fn(countedDb(tx, counter)));
    },
    close: () => db.close(),
  };
}
