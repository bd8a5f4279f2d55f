/** Jest runs TypeScript through ts-jest; type-checking is done once by `tsc --noEmit` in `npm test`. */
module.exports = {
	testEnvironment: "node",
	roots: ["<rootDir>/test"],
	testMatch: ["**/*.test.ts"],
	transform: {
		"^.+\\.ts$": ["ts-jest", { diagnostics: false }]
	},
	maxWorkers: 2,
	testTimeout: 60000,
	forceExit: true
};
