/** Types of scripts/eval-discovery.mjs, for the unit tests (TypeScript). */
import type { CatalogItem } from './eval-catalog.mjs';
import type { DiscoveryQuery } from './eval-discovery-queries.mjs';

export declare const DISCOVERY_FILE: string;
export declare function readDiscoveryQueries(
  file: string,
  catalog: CatalogItem[],
  CannotRun?: new (message: string) => Error,
): DiscoveryQuery[];
