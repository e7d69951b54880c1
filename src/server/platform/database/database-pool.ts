import { availableParallelism } from 'node:os';

// Issue 32: how many connections an instance keeps to PostgreSQL. node-postgres's own default is 10 whatever the host.
// More connections than the work can use make the server switch between backends and wait on more locks: on the
// turn-cost bench (2 cores, service and server on them) a pool of 4 or 5 cost the server 1.47-1.63 ms of CPU a turn
// at concurrency 32 against 1.74-1.8 ms with 10, and served as many turns a second or more. The default is Prisma's rule (its
// `connection_limit`): the client host's CPUs times two, plus one. Instances multiply it on the server, so several
// instances on a small server stay under its `max_connections` (100 by default). `databasePoolSize` sets it.

/**
 * The pool size an instance uses: `configured`, or the CPUs this process may use times two, plus one.
 * @example
 * databasePoolSize(undefined, 2); // → 5
 * databasePoolSize(20, 2);        // → 20
 */
export function databasePoolSize(configured: number | undefined, cpus = availableParallelism()): number {
  return configured ?? cpus * 2 + 1;
}
