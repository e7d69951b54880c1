/** Types of scripts/chromium.mjs, for the e2e harness (TypeScript). */
export declare const CHROMIUM: string;
export declare const CHROMIUM_ARGS: readonly string[];
