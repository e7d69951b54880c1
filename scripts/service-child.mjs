// For benchmarks (not part of the service): the built service, or another server, as a child process: a free port,
// waiting until it answers /healthz, and stopping it as an orchestrator would (SIGTERM, then SIGKILL after 30 s).
// Shared by scripts/bench-turn-cost.mjs and bench-insights.mjs.
import net from 'node:net';

const sleep = (ms) => new Promise((ok) => setTimeout(ok, ms));

/** A TCP port free on loopback now. */
export function freePort() {
  return new Promise((ok, fail) => {
    const server = net.createServer();
    server.on('error', fail);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => ok(port));
    });
  });
}

/** Resolves once `url`/healthz answers 200; throws when `child` exits first or after 120 s. */
export async function waitHealthy(url, child, what) {
  for (let i = 0; i < 1200; i++) {
    if (child.exitCode !== null) throw new Error(`${what} exited (${child.exitCode}) before it answered`);
    try {
      const res = await fetch(`${url}/healthz`);
      await res.arrayBuffer();
      if (res.status === 200) return;
    } catch {}
    await sleep(100);
  }
  throw new Error(`${what} did not answer /healthz within 120 s`);
}

/** SIGTERM, and SIGKILL when it has not exited 30 s later. */
export async function stopChild(child) {
  if (child.exitCode !== null) return;
  const exited = new Promise((ok) => child.once('exit', ok));
  child.kill('SIGTERM');
  const late = setTimeout(() => child.kill('SIGKILL'), 30_000);
  await exited;
  clearTimeout(late);
}
