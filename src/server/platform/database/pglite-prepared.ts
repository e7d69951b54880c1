import { type PGlite, parse, protocol, type Transaction } from '@electric-sql/pglite';
import { isStalePlan, PREPARED_MAX } from './stale-plan';

/**
 * Named prepared statements on PGlite (issue 32, the cost of a turn). `PGlite.query` parses and plans its statement
 * anew every time and crosses into WebAssembly six times for it (parse, describe, bind, describe, execute, sync). This
 * parses a statement once under a name, and then runs it with one crossing: bind, describe, execute and sync in one
 * message. A conversation's read by id took 0.43 ms of CPU that way and 0.17 ms this way, in a one-off timing loop
 * (no script in the repository prints it); the turn-cost bench shows the effect on a turn. The same idea as node-postgres's named statements on the PostgreSQL backend (db.ts).
 *
 * Built on PGlite's own exports (`protocol` to write the messages, `parse` to read the answer, the serializers and
 * parsers it was opened with) and its locks: outside a transaction a statement takes the transaction lock and the
 * query lock as `query` does, and writes the files afterwards (`syncToFs`); inside one it takes the query lock only.
 */
export interface PglitePrepared {
  /** Runs a statement with parameters; `tx` is PGlite's transaction when one is open (its lock is then held). */
  query<T>(sql: string, params: readonly unknown[], tx?: Transaction): Promise<T[]>;
}

const joined = (parts: Uint8Array[]): Uint8Array => {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const part of parts) {
    out.set(part, at);
    at += part.length;
  }
  return out;
};

export function pglitePrepared(pglite: PGlite): PglitePrepared {
  /** By text: its name and its parameters' type ids; null once it is to run unnamed. */
  const prepared = new Map<string, { name: string; types: number[] } | null>();
  const serialize = protocol.serialize;

  async function statementFor(sql: string) {
    const known = prepared.get(sql);
    if (known) return known;
    const name = `sw_${prepared.size}`;
    const described = await pglite.execProtocolStream(
      joined([
        serialize.parse({ name, text: sql }),
        serialize.describe({ type: 'S', name }),
        serialize.sync(),
      ]),
      { syncToFs: false },
    );
    const statement = { name, types: parse.parseDescribeStatementResults(described) };
    prepared.set(sql, statement);
    return statement;
  }

  async function run<T>(sql: string, params: readonly unknown[], inTransaction: boolean): Promise<T[]> {
    const statement = await statementFor(sql);
    // As `PGlite.query` turns parameters into text: by the type the statement declared for each.
    const values = params.map((value, i) => {
      if (value === null || value === undefined) return null;
      const toText = pglite.serializers[statement.types[i]];
      return toText ? toText(value) : String(value);
    });
    const messages = await pglite.execProtocolStream(
      joined([
        serialize.bind({ statement: statement.name, values }),
        serialize.describe({ type: 'P' }),
        serialize.execute({}),
        serialize.sync(),
      ]),
      { syncToFs: false },
    );
    if (!inTransaction) await pglite.syncToFs();
    return (parse.parseResults(messages, pglite.parsers)[0]?.rows ?? []) as T[];
  }

  /** `PGlite.query`'s own path, which takes the locks itself. */
  const unnamed = async <T>(sql: string, params: readonly unknown[], tx?: Transaction): Promise<T[]> =>
    (await (tx ?? pglite).query<T>(sql, params as unknown[])).rows;

  return {
    async query<T>(sql: string, params: readonly unknown[], tx?: Transaction): Promise<T[]> {
      const known = prepared.get(sql);
      if (known === null || (known === undefined && prepared.size >= PREPARED_MAX))
        return unnamed<T>(sql, params, tx);
      try {
        return await (tx
          ? pglite._runExclusiveQuery(() => run<T>(sql, params, true))
          : pglite._runExclusiveTransaction(() =>
              pglite._runExclusiveQuery(() => run<T>(sql, params, false)),
            ));
      } catch (error) {
        if (!isStalePlan(error)) throw error;
        prepared.set(sql, null);
        // In a transaction the failed statement has aborted it: the caller's transaction fails, as on PostgreSQL.
        if (tx) throw error;
        return unnamed<T>(sql, params);
      }
    },
  };
}
