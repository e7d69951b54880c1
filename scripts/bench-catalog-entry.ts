// What `npm run bench` (scripts/bench-catalog.mjs) imports from the build: the catalog store, search and feed ingest
// on the embedded database, bundled like the CLI, so the figures are those of the code that ships.
export { refreshWidgetFeeds } from '../src/server/catalog/ingest/feed-ingest';
export { searchProducts } from '../src/server/catalog/search/search-products';
export { createCatalogStore } from '../src/server/catalog/store/catalog-store';
export { openPglite, openPostgres } from '../src/server/platform/database/db';
export { migrate } from '../src/server/platform/database/migrate';
export { startPushBenchService } from './bench-push-service';
