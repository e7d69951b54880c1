/** Types of scripts/import-layers.mjs, for its test (TypeScript). */
export declare function importsOf(text: string): string[];
export declare function checkImports(files: Map<string, string>): string[];
export declare function readSources(srcDir: string): Map<string, string>;
