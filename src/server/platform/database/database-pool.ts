import { availableParallelism } from 'node:os';

// Issue 32: how many connections an instance keeps to PostgreSQL. node-postgres's own default is 10 whatever the host.
// More connections than the work can use make the server switch between backends and wait on more locks: on the
// turn-cost bench (2 cores, service and server on them) a pool of 4 or 5 cost the server 1.47-1.63 ms of CPU a turn
// at concurrency 32 against 1.74-1.8 ms with 10, and served as many turns a second or more. The default is Prisma's rule (its
// `connection_limit`): the client host's CPUs times two, plus one, and never more than node-postgres's 10: the CPUs
// Node counts are the host's, not a container's quota (a pod of one CPU on a 64-core node would open 129), and
// instances multiply the pool on the server, whose `max_connections` is 100 by default. `databasePoolSize` sets it.

/** The default's ceiling: node-postgres's own default. */
const DEFAULT_MAX = 10;

/**
 * The pool size an instance uses: `configured`, or the CPUs this process may use times two, plus one, at most 10.
 * @example
 * databasePoolSize(undefined, 2); // → 5
 * databasePoolSize(undefined, 64); // → 10
 * databasePoolSize(20, 2);        // → 20
 */
export function databasePoolSize(configured: number | undefined, cpus = availableParallelism()): number {
  return configured ?? Math.min(cpus * 2 + 1, DEFAULT_MAX);
}
