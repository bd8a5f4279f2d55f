/**
 * Loads an ESM-only package from a CommonJS test. TypeScript compiles `import()` to `require()`
 * under `module: commonjs`, which cannot load ES modules under Jest; a real dynamic import (Jest
 * runs with --experimental-vm-modules) can.
 */
const dynamicImport = new Function("specifier", "return import(specifier)") as (specifier: string) => Promise<unknown>;

export function importEsm<T>(specifier: string): Promise<T> {
	return dynamicImport(specifier) as Promise<T>;
}
