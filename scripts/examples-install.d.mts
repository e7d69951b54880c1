/** Types of scripts/examples-install.mjs, for e2e/framework-examples.e2e.ts (TypeScript). */
export declare const EXAMPLES: string;
export declare function installExamples(): { installed: boolean };
