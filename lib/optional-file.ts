import * as fs from "node:fs";

/** The bytes of a file, or undefined when it does not exist (any other read error is thrown). */
export function readFileIfPresent(file: string): Buffer | undefined {
	try {
		return fs.readFileSync(file);
	} catch (err) {
		if ((err as NodeJS.ErrnoException).code === "ENOENT") return undefined;
		throw err;
	}
}
