// @ts-check
/**
 * Second half of `npm run build`: tsc compiles the TypeScript into dist/, this copies what the
 * compiled code reads beside it at run time. Paths keep their place relative to the code
 * (dist/lib/widget/assets.js reads dist/assets/...), so nothing needs to know it runs compiled.
 * An optional argument names another output directory (the memory benchmark builds into a
 * temporary one with `tsc -p tsconfig.build.json --outDir <dir>`).
 */
"use strict";
const fs = require("node:fs");
const path = require("node:path");

const ROOT = path.resolve(__dirname, "..");
const DIST = path.resolve(ROOT, process.argv[2] ?? "dist");

/** Directories copied whole, and single files that are not TypeScript (the worker thread's entry). */
const COPIED = ["assets", "docs", "lib/workers/worker-entry.js"];

if (!fs.existsSync(path.join(DIST, "bin", "start.js"))) {
	process.stderr.write(`${path.join(DIST, "bin", "start.js")} is missing: run tsc -p tsconfig.build.json first\n`);
	process.exit(1);
}
for (const entry of COPIED) {
	fs.cpSync(path.join(ROOT, entry), path.join(DIST, entry), { recursive: true });
}
process.stdout.write(`build: copied ${COPIED.join(", ")} into ${path.relative(ROOT, DIST) || "."}/\n`);
