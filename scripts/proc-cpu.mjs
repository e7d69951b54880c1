// For benchmarks (not part of the service): the CPU time and memory of other processes, read from Linux's /proc, so a
// bench can say what the service and its database spent without counting its own client. CPU from /proc is what the
// kernel charged each process (user + system), not wall time: on a shared 2-core machine, time spent waiting for a core
// is not in it.
import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';

/**
 * One line of `/proc/<pid>/stat`. The command name sits in parentheses and may hold spaces and parentheses itself
 * (PostgreSQL backends retitle themselves: `postgres: postgres postgres 127.0.0.1(40112) idle`), so the fields are
 * counted from the last `)`. Times are in clock ticks (`getconf CLK_TCK`); `cutime`/`cstime` are what the process's
 * children that have exited and been waited for spent.
 */
export function parseStat(line) {
  const open = line.indexOf('(');
  const close = line.lastIndexOf(')');
  if (open < 0 || close < open) throw new Error(`not a /proc stat line: ${line.slice(0, 80)}`);
  // After the name: state (field 3), ppid (4), … utime (14), stime (15), cutime (16), cstime (17), … rss (24).
  const rest = line
    .slice(close + 2)
    .trim()
    .split(/\s+/);
  const field = (n) => Number(rest[n - 3]);
  return {
    pid: Number(line.slice(0, open).trim()),
    comm: line.slice(open + 1, close),
    state: rest[0],
    ppid: field(4),
    utime: field(14),
    stime: field(15),
    cutime: field(16),
    cstime: field(17),
    rssPages: field(24),
  };
}

/** Ticks a process has used: its own, and those of its children that have ended (a closed database connection's). */
export const ticksOf = (stat) => stat.utime + stat.stime + stat.cutime + stat.cstime;

/**
 * The ticks of a process tree: the root's (with its ended children's) plus every live descendant's. A child that ends
 * between two readings moves from the live sum into its parent's `cutime`/`cstime`, so a difference of two readings
 * stays whole (a child's ticks are reaped into its parent only once its parent has waited for it, which a PostgreSQL
 * postmaster does at once).
 */
export function treeTicks(stats, rootPid) {
  const children = new Map();
  for (const s of stats) {
    if (!children.has(s.ppid)) children.set(s.ppid, []);
    children.get(s.ppid).push(s);
  }
  const root = stats.find((s) => s.pid === rootPid);
  if (!root) return null;
  let ticks = 0;
  const queue = [root];
  while (queue.length) {
    const s = queue.pop();
    // A live process's ended children are in its cutime/cstime and no longer in the list: nothing counts twice.
    ticks += ticksOf(s);
    queue.push(...(children.get(s.pid) ?? []));
  }
  return ticks;
}

let clockTicks;
/** Clock ticks per second (`getconf CLK_TCK`; 100 on almost every Linux). */
export function ticksPerSecond() {
  clockTicks ??= Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim()) || 100;
  return clockTicks;
}

let pageBytes;
const pageSize = () => {
  pageBytes ??= Number(execFileSync('getconf', ['PAGESIZE'], { encoding: 'utf8' }).trim()) || 4096;
  return pageBytes;
};

/** The stat of one process, or null when it is gone. */
export function readStat(pid) {
  try {
    return parseStat(readFileSync(`/proc/${pid}/stat`, 'utf8'));
  } catch {
    return null;
  }
}

/** Every process's stat that can be read now (processes may end while /proc is listed). */
export function readAllStats() {
  const stats = [];
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    const s = readStat(name);
    if (s) stats.push(s);
  }
  return stats;
}

/** CPU milliseconds (user + system, ended children included) of one process so far. */
export function cpuMs(pid) {
  const s = readStat(pid);
  if (!s) throw new Error(`process ${pid} is gone`);
  return (ticksOf(s) * 1000) / ticksPerSecond();
}

/** CPU milliseconds of a process and all its descendants so far (a PostgreSQL cluster from its postmaster). */
export function treeCpuMs(rootPid) {
  const ticks = treeTicks(readAllStats(), rootPid);
  if (ticks === null) throw new Error(`process ${rootPid} is gone`);
  return (ticks * 1000) / ticksPerSecond();
}

/** Resident memory of a process in bytes. */
export function rssBytes(pid) {
  const s = readStat(pid);
  if (!s) throw new Error(`process ${pid} is gone`);
  return s.rssPages * pageSize();
}
