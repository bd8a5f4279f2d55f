/**
 * The load client as its own process, so it never shares an event loop with the server it measures:
 * `node --import tsx bench/load/cli.ts '<json {target, options}>'` prints one JSON LoadResult.
 */
import { LoadOptions, LoadTarget, runLoad } from "./client";

const { target, options } = JSON.parse(process.argv[2] ?? "{}") as { target: LoadTarget; options: LoadOptions };
runLoad(target, options)
	.then(result => process.stdout.write(`${JSON.stringify(result)}\n`))
	.catch(err => {
		process.stderr.write(`${err instanceof Error ? err.message : String(err)}\n`);
		process.exitCode = 1;
	});
