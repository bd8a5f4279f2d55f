/**
 * Jest runs TypeScript through ts-jest; type-checking is done once by `tsc --noEmit` in `npm test`.
 *
 * `npm test` runs two passes. The tests that load the whole machine (every service as its own
 * process; an image build with `npm ci`) run last and alone (JEST_PASS=solo), so their load does not
 * starve the browser tests that would otherwise run beside them on a 2-core machine; the first pass
 * (JEST_PASS=main) runs everything else two at a time. Without JEST_PASS (`npx jest <file>`), every
 * test file can be run.
 */
const SOLO = ["fault-tolerance", "image-build"];
const soloPattern = `/test/integration/(${SOLO.join("|")})\\.test\\.ts$`;
const pass = process.env.JEST_PASS;

module.exports = {
	testEnvironment: "node",
	roots: ["<rootDir>/test"],
	testMatch: ["**/*.test.ts"],
	...(pass === "main" ? { testPathIgnorePatterns: ["/node_modules/", soloPattern] } : {}),
	...(pass === "solo" ? { testRegex: soloPattern, testMatch: undefined } : {}),
	transform: {
		"^.+\\.ts$": ["ts-jest", { diagnostics: false }]
	},
	maxWorkers: pass === "solo" ? 1 : 2,
	testTimeout: 60000,
	forceExit: true
};
