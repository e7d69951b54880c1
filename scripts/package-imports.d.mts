/** Types of scripts/package-imports.mjs, for the tests (TypeScript). */
export declare function packageOf(spec: string): string | undefined;
export declare function specifiersOf(code: string): string[];
export declare function scan(entries: string[]): { files: string[]; packages: Record<string, string[]> };
export declare function packagesImported(entries: string[]): Record<string, string[]>;
export declare function exportedFiles(
  root: string,
  manifest: { exports?: Record<string, string | Record<string, string>> },
): { runtime: string[]; types: string[] };
export declare function binFiles(root: string, manifest: { bin?: string | Record<string, string> }): string[];
