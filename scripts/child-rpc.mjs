// The benchmarks run the service in a child process of their own (its memory and event loop measured apart from the
// load generator). This is the little request/response protocol over the IPC channel both sides speak.
import { fork } from 'node:child_process';

/** In the child: answers `{ id, cmd, args }` messages with `handlers[cmd](args)`, then says it is ready. */
export function serveParent(handlers) {
  process.on('message', async ({ id, cmd, args }) => {
    try {
      process.send({ id, result: await handlers[cmd](args ?? {}) });
    } catch (error) {
      process.send({ id, error: error instanceof Error ? error.message : String(error) });
    }
  });
  process.on('disconnect', () => process.exit(0));
  process.send({ ready: true });
}

/**
 * In the parent: forks `file` with `args` (and `--expose-gc`), waits until it is ready, and returns `call(cmd, args)`
 * plus the child and a promise of its exit. A call pending when the child exits rejects.
 */
export async function startChildProcess(file, args) {
  const child = fork(file, args, {
    execArgv: ['--expose-gc'],
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const pending = new Map();
  let next = 0;
  const exited = new Promise((done) => child.once('exit', done));
  await new Promise((ok, fail) => {
    child.once('message', ok);
    child.once('exit', (code) => fail(new Error(`the service process exited (${code}) before it was ready`)));
  });
  child.on('message', ({ id, result, error }) => {
    const waiter = pending.get(id);
    pending.delete(id);
    if (error) waiter?.fail(new Error(error));
    else waiter?.ok(result);
  });
  child.once('exit', (code) => {
    for (const waiter of pending.values()) waiter.fail(new Error(`the service process exited (${code})`));
    pending.clear();
  });
  const call = (cmd, args) =>
    new Promise((ok, fail) => {
      const id = next++;
      pending.set(id, { ok, fail });
      child.send({ id, cmd, args });
    });
  return { child, call, exited };
}
