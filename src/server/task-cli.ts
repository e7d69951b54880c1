// `service-widget task …` on its own (bin/service-widget.js loads this for the `task` command): it speaks to a service
// over HTTP with the task client, so it runs where only `npm i service-widget` was done, without the service's
// runtime that `serve` needs (docs/deploy.md).
import { runTaskCli } from './task-command';

runTaskCli(process.argv.slice(3)).then(
  (code) => process.exit(code),
  (e: unknown) => {
    process.stderr.write(`${e instanceof Error ? e.stack : String(e)}\n`);
    process.exit(1);
  },
);
