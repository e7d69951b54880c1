/** Types of scripts/package-install.mjs, for the e2e specs (TypeScript). */
export declare const NPM_FLAGS: string[];
export declare function packInto(dir: string): { filename: string; integrity: string };
export declare function installPacked(dir: string): { tarball: string; project: string; nodeModules: string };
export declare function installedPackages(nodeModules: string): string[];
export declare function diskUsage(dir: string): { files: number; bytes: number; onDisk: number };
