// What `npm run eval` (scripts/eval.mjs) imports from the build: the service's start and its config check, bundled
// like the CLI, so the eval measures the code that ships.
export { parseConfig } from '../src/server/config/service-config';
export { startService } from '../src/server/start';
