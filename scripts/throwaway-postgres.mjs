// For benchmarks (not part of the service): a throwaway cluster of Debian's postgresql, as scripts/postgres-for-tests.sh
// starts one for the tests, and a fresh schema in it per run. `startCluster()` answers null when PostgreSQL is not
// installed or cannot start (the caller then skips it and says so). `PG_EXTRA` adds server options, for a look inside
// a run: PG_EXTRA="-c logging_collector=on -c log_directory=/tmp/pglog -c log_statement=all" logs every statement.
// PG_STATEMENTS=FILE writes, as the cluster stops, what pg_stat_statements counted (calls, how many were planned anew,
// time and rows per statement, the heaviest first) to FILE, then each table's writes (inserts, updates, how many of
// those were HOT, dead rows): where the database's share of a run goes.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export function startCluster(name = 'bench') {
  const bins = existsSync('/usr/lib/postgresql')
    ? readdirSync('/usr/lib/postgresql')
        .map((v) => `/usr/lib/postgresql/${v}/bin`)
        .filter((dir) => existsSync(join(dir, 'initdb')))
        .sort((a, b) => a.localeCompare(b, 'en', { numeric: true }))
    : [];
  const bin = bins.at(-1);
  if (!bin) return null;
  const dir = mkdtempSync(join(tmpdir(), `${name}-pg-`));
  // initdb refuses to run as root: the cluster then runs as the postgres user.
  const asRoot = process.getuid?.() === 0;
  const run = (command, args) =>
    asRoot
      ? execFileSync('runuser', ['-u', 'postgres', '--', command, ...args], { stdio: 'ignore' })
      : execFileSync(command, args, { stdio: 'ignore' });
  const port = 20_000 + Math.floor(Math.random() * 20_000);
  try {
    if (asRoot) execFileSync('chown', ['postgres:postgres', dir]);
    run(join(bin, 'initdb'), [
      '-D',
      join(dir, 'data'),
      '-U',
      'postgres',
      '--auth=trust',
      '-E',
      'UTF8',
      '--locale=C.UTF-8',
    ]);
    const statements = process.env.PG_STATEMENTS
      ? '-c shared_preload_libraries=pg_stat_statements -c pg_stat_statements.track=all -c pg_stat_statements.track_planning=on'
      : '';
    run(join(bin, 'pg_ctl'), [
      ...['-D', join(dir, 'data'), '-l', join(dir, 'log'), '-w', '-t', '30', 'start'],
      ...[
        '-o',
        `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=off ${statements} ${process.env.PG_EXTRA ?? ''}`,
      ],
    ]);
  } catch (e) {
    rmSync(dir, { recursive: true, force: true });
    console.error(`postgres: could not start a throwaway cluster (${e.message}); PostgreSQL is skipped`);
    return null;
  }
  return {
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    /** The cluster's data folder: its `postmaster.pid` names the process a bench reads the cluster's CPU from. */
    dataDir: join(dir, 'data'),
    version: execFileSync(join(bin, 'postgres'), ['--version'], { encoding: 'utf8' }).trim(),
    stop: () => {
      try {
        if (process.env.PG_STATEMENTS) writeStatements(bin, dir, port, process.env.PG_STATEMENTS);
        run(join(bin, 'pg_ctl'), ['-D', join(dir, 'data'), '-m', 'immediate', 'stop']);
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    },
  };
}

/** A fresh schema on the server, and the URL that works in it. */
export async function freshSchema(serverUrl, prefix = 'bench') {
  const { default: pg } = await import('pg');
  const schema = `${prefix}_${process.pid}_${Date.now()}`;
  const admin = new pg.Client({ connectionString: serverUrl });
  await admin.connect();
  try {
    await admin.query(`CREATE SCHEMA ${schema}`);
  } finally {
    await admin.end();
  }
  const url = new URL(serverUrl);
  url.searchParams.set('options', `-c search_path=${schema}`);
  return {
    url: url.toString(),
    drop: async () => {
      const client = new pg.Client({ connectionString: serverUrl });
      await client.connect();
      try {
        await client.query(`DROP SCHEMA ${schema} CASCADE`);
      } finally {
        await client.end();
      }
    },
  };
}

/** PG_STATEMENTS: the cluster's pg_stat_statements, heaviest first, as tab-separated lines. */
function writeStatements(bin, dir, port, file) {
  const sql = `CREATE EXTENSION IF NOT EXISTS pg_stat_statements;
    COPY (SELECT calls, plans, round(total_exec_time::numeric, 1) AS exec_ms, round(total_plan_time::numeric, 1) AS plan_ms,
                 rows, shared_blks_hit + shared_blks_read AS blocks, wal_records,
                 regexp_replace(query, '\\s+', ' ', 'g') AS query
            FROM pg_stat_statements ORDER BY total_exec_time DESC LIMIT 60) TO STDOUT WITH (FORMAT csv, HEADER);
    COPY (SELECT schemaname || '.' || relname AS tab, n_tup_ins, n_tup_upd, n_tup_hot_upd, n_tup_del, n_live_tup,
                 n_dead_tup, last_analyze, last_autoanalyze
            FROM pg_stat_user_tables WHERE n_tup_ins + n_tup_upd + n_tup_del > 0 ORDER BY n_tup_upd DESC)
      TO STDOUT WITH (FORMAT csv, HEADER)`;
  try {
    const out = execFileSync(
      join(bin, 'psql'),
      ['-h', dir, '-p', String(port), '-U', 'postgres', '-c', sql],
      {
        encoding: 'utf8',
      },
    );
    writeFileSync(file, out);
  } catch (e) {
    console.error(`postgres: could not read pg_stat_statements (${e.message})`);
  }
}
