/** Shared output of the benchmarks: a Markdown table, and the standalone runner. */

export function printMarkdownTable(rows: Array<Record<string, string>>, title?: string): void {
	if (rows.length === 0) return;
	const columns = Object.keys(rows[0]);
	const widths = columns.map(c => Math.max(c.length, ...rows.map(row => (row[c] ?? "").length)));
	const line = (cells: string[]) => `| ${cells.map((cell, i) => cell.padEnd(widths[i])).join(" | ")} |`;
	if (title) console.log(title);
	console.log(line(columns));
	console.log(`|${widths.map(w => "-".repeat(w + 2)).join("|")}|`);
	for (const row of rows) console.log(line(columns.map(c => row[c] ?? "")));
}

/** Runs a benchmark when its file is executed directly (`npx tsx bench/<name>.bench.ts`). */
export function runStandalone<R>(name: string, run: () => Promise<R>, print: (result: R) => void): void {
	const started = Date.now();
	run()
		.then(result => {
			print(result);
			console.log(`\n${name} benchmark finished in ${((Date.now() - started) / 1000).toFixed(1)} s`);
		})
		.catch(err => {
			console.error(err);
			process.exitCode = 1;
		});
}
