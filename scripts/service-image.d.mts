/** Types of scripts/service-image.mjs, for the e2e specs (TypeScript). */
export declare function runtimeLocations(names: string[], lock?: unknown): Record<string, boolean>;
export declare function serviceImage(out: string): void;
