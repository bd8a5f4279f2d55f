// @ts-check
/**
 * Second half of `npm run build`: tsc compiles the TypeScript into dist/, this copies what the
 * compiled code reads beside it at run time. Paths keep their place relative to the code
 * (dist/lib/widget/assets.js reads dist/assets/...), so nothing needs to know it runs compiled.
 */
"use strict";
const fs = require("node:fs");
const path = require("node:path");

const ROOT = path.resolve(__dirname, "..");
const DIST = path.join(ROOT, "dist");

/** Directories copied whole, and single files that are not TypeScript (the worker thread's entry). */
const COPIED = ["assets", "docs", "lib/workers/worker-entry.js"];

if (!fs.existsSync(path.join(DIST, "bin", "start.js"))) {
	process.stderr.write("dist/bin/start.js is missing: run tsc -p tsconfig.build.json first\n");
	process.exit(1);
}
for (const entry of COPIED) {
	fs.cpSync(path.join(ROOT, entry), path.join(DIST, entry), { recursive: true });
}
process.stdout.write(`build: copied ${COPIED.join(", ")} into dist/\n`);
