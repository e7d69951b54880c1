// What `npm run bench` (scripts/bench-service.mjs) imports from the build: the service's start and its config check,
// bundled like the CLI, so the figures are those of the code that ships.
export { parseConfig } from '../src/server/config/service-config';
export { startService } from '../src/server/start';
