#!/usr/bin/env node
// The package's command line; the implementation is bundled into dist/ by `npm run build`. The service's runtime is
// made of optional peer dependencies (docs/deploy.md): check for them first, so that a missing or incompatible one gets
// the install line instead of an ERR_MODULE_NOT_FOUND for the first import that fails.
import { fileURLToPath } from 'node:url';
import { runtimeMessage, runtimeProblems } from '../dist/server/runtime-packages.js';

// `task` talks to a service over HTTP and needs none of the service's packages.
if (process.argv[2] === 'task') await import('../dist/server/task-cli.js');
else {
  const message = runtimeMessage(runtimeProblems(fileURLToPath(new URL('..', import.meta.url))));
  if (message) {
    process.stderr.write(message);
    process.exit(1);
  }
  await import('../dist/server/cli.js');
}
