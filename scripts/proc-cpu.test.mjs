// @vitest-environment node
import { spawn } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { cpuMs, parseStat, readStat, rssBytes, treeCpuMs, treeTicks } from './proc-cpu.mjs';

/** A /proc stat line as Linux writes it: pid, (comm), state, ppid, … with utime..cstime at fields 14–17, rss at 24. */
const statLine = ({ pid, comm, ppid, utime = 0, stime = 0, cutime = 0, cstime = 0, rss = 0 }) =>
  [
    pid,
    `(${comm})`,
    'S',
    ppid,
    ...[pid, 0, 0, -1, 4194304, 100, 0, 0, 0],
    utime,
    stime,
    cutime,
    cstime,
    ...[20, 0, 1, 0, 2204070, 3133440],
    rss,
    '18446744073709551615 0 0 0',
  ].join(' ');

describe('parseStat', () => {
  it('reads the times, parent and resident pages after a name holding spaces and parentheses', () => {
    const line = statLine({
      pid: 4711,
      comm: 'postgres: postgres postgres 127.0.0.1(40112) idle',
      ppid: 4700,
      utime: 12,
      stime: 3,
      cutime: 40,
      cstime: 5,
      rss: 418,
    });
    expect(parseStat(line)).toEqual({
      pid: 4711,
      comm: 'postgres: postgres postgres 127.0.0.1(40112) idle',
      state: 'S',
      ppid: 4700,
      utime: 12,
      stime: 3,
      cutime: 40,
      cstime: 5,
      rssPages: 418,
    });
  });

  it('refuses a line that is not a stat line', () => {
    expect(() => parseStat('hello')).toThrow(/not a \/proc stat line/);
  });

  it("reads this process's own stat from /proc", () => {
    const own = readStat(process.pid);
    expect(own?.pid).toBe(process.pid);
    expect(own?.ppid).toBe(process.ppid);
    expect(cpuMs(process.pid)).toBeGreaterThan(0);
    expect(rssBytes(process.pid)).toBeGreaterThan(1024 * 1024);
  });
});

describe('treeTicks', () => {
  const stats = [
    { pid: 1, ppid: 0, utime: 1000, stime: 1000, cutime: 0, cstime: 0 },
    // the postmaster: its ended backends are in cutime/cstime
    { pid: 10, ppid: 1, utime: 5, stime: 2, cutime: 30, cstime: 10 },
    { pid: 11, ppid: 10, utime: 7, stime: 1, cutime: 0, cstime: 0 },
    { pid: 12, ppid: 10, utime: 4, stime: 4, cutime: 2, cstime: 0 },
    { pid: 13, ppid: 12, utime: 1, stime: 0, cutime: 0, cstime: 0 },
    // not in the tree
    { pid: 20, ppid: 1, utime: 500, stime: 500, cutime: 0, cstime: 0 },
  ];

  it('sums the root with its ended children and every live descendant, nothing outside it', () => {
    expect(treeTicks(stats, 10)).toBe(5 + 2 + 30 + 10 + (7 + 1) + (4 + 4 + 2) + 1);
  });

  it('stays whole when a child ends between two readings (its ticks move into the parent)', () => {
    const before = treeTicks(stats, 10);
    const after = treeTicks(
      stats
        .filter((s) => s.pid !== 11)
        .map((s) => (s.pid === 10 ? { ...s, cutime: s.cutime + 7, cstime: s.cstime + 1 } : s)),
      10,
    );
    expect(after - before).toBe(0);
  });

  it('answers null for a root that is gone', () => {
    expect(treeTicks(stats, 99)).toBeNull();
  });

  it('counts a real child process that burns CPU', async () => {
    const child = spawn(process.execPath, ['-e', 'const end = Date.now() + 300; while (Date.now() < end);']);
    const exited = new Promise((done) => child.once('exit', done));
    const before = treeCpuMs(process.pid);
    await exited;
    // Reaped: its time is now in this process's cutime/cstime.
    expect(treeCpuMs(process.pid) - before).toBeGreaterThanOrEqual(100);
  });
});
