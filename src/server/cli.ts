import { parseArgs } from 'node:util';
import { redactSecrets } from './platform/logger';
import { startService } from './start';
import { startError, startSettings } from './start-settings';
import { runTaskCli, TASK_USAGE } from './task-command';

const USAGE = `Usage:
  service-widget serve --config service.config.json [--port 8787] [--host 127.0.0.1] [--data-dir .data/db]

Starts the reference service: the widget's chat API and the built widget files under /sdk/.
The embedded database lives in --data-dir; DATABASE_URL (postgres://…) overrides the config's "database".
The environment may set instead: CONFIG (the config file), PORT, HOST; LOG_LEVEL (trace, debug, info, warn, error,
fatal, silent; default info) sets what the JSON log lines on stdout include.

${TASK_USAGE}`;

/** `npx service-widget …`; returns the process exit code. */
export async function main(argv: string[]): Promise<number> {
  const [command, ...rest] = argv;
  if (command === 'task') return runTaskCli(rest);
  if (command !== 'serve') {
    process.stderr.write(
      `${command && command !== 'help' && command !== '--help' ? `Unknown command: ${command}\n\n` : ''}${USAGE}\n`,
    );
    return command === 'help' || command === '--help' ? 0 : 2;
  }
  let values: { config?: string; port?: string; host?: string; 'data-dir'?: string };
  try {
    ({ values } = parseArgs({
      args: rest,
      options: {
        config: { type: 'string' },
        port: { type: 'string' },
        host: { type: 'string' },
        'data-dir': { type: 'string' },
      },
    }));
  } catch (e) {
    process.stderr.write(`${(e as Error).message}\n\n${USAGE}\n`);
    return 2;
  }
  const configFile = values.config ?? (process.env.CONFIG || undefined);
  if (!configFile) {
    process.stderr.write(`--config (or CONFIG) is required\n\n${USAGE}\n`);
    return 2;
  }
  // Every wrong value stops the start with one line naming it (on stderr: stdout carries JSON lines only).
  const settings = await startSettings(values, configFile, process.env);
  if (!settings.ok) {
    process.stderr.write(`Cannot start: ${settings.error}\n`);
    return 1;
  }
  let service: Awaited<ReturnType<typeof startService>>;
  try {
    service = await startService(settings.value);
  } catch (e) {
    // A missing model key, a locked data folder, an unreachable database: one clear line, not a stack trace.
    process.stderr.write(`Cannot start: ${redactSecrets(startError(e, settings.value))}\n`);
    return 1;
  }
  // The first SIGTERM or SIGINT drains (start.ts `shutdown`: running turns finish or go to another instance), then
  // exits 0; a second one, from an operator who will not wait, exits at once.
  let stopping = false;
  const stop = (signal: NodeJS.Signals) => {
    if (stopping) {
      process.stderr.write(`${signal} again: stopping now, without waiting for running turns\n`);
      process.exit(1);
    }
    stopping = true;
    service.shutdown().then(
      () => process.exit(0),
      (e: unknown) => {
        process.stderr.write(`Shutdown failed: ${redactSecrets(String(e))}\n`);
        process.exit(1);
      },
    );
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
  return 0;
}

// Run when executed as the CLI (bin/service-widget.js imports this bundle), not when imported by tests.
if (process.argv[1] && /(?:cli\.js|service-widget(?:\.js)?)$/.test(process.argv[1])) {
  main(process.argv.slice(2)).then(
    (code) => {
      if (code !== 0) process.exit(code);
    },
    (e: unknown) => {
      process.stderr.write(`${e instanceof Error ? e.stack : String(e)}\n`);
      process.exit(1);
    },
  );
}
