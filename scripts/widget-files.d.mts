/** Types of scripts/widget-files.mjs, for the e2e specs (TypeScript). */
export declare function importsOf(code: string): { static: string[]; dynamic: string[] };
export declare function reachable(entries: string[], options?: { dynamic?: boolean }): string[];
interface Files {
  untilReady: string[];
  untilOpen: string[];
  everything: string[];
  languages: Record<string, string>;
  onDemand: string[];
}
export declare function widgetLanguages(): string[];
export declare function widgetFiles(dist: string, languages?: string[]): { script: Files; npm: Files };
