/**
 * A word without the marks around it ("(Aurora)" → "Aurora", "`tools/list`," → "tools/list"), trimmed
 * by a loop over its characters. A pattern such as /[\p{P}]+$/ is retried from every mark of a long
 * run inside the word and takes quadratic time on "x,,,…,y" (6 s for 100,000 commas).
 */
export function trimEdges(word: string, leading: RegExp, trailing: RegExp = leading): string {
	let start = 0;
	while (start < word.length) {
		const char = String.fromCodePoint(word.codePointAt(start) as number);
		if (!leading.test(char)) break;
		start += char.length;
	}
	let end = word.length;
	while (end > start) {
		// A low surrogate ends an astral character: read the pair.
		const low = word.charCodeAt(end - 1);
		const size = low >= 0xdc00 && low <= 0xdfff && end - 2 >= start ? 2 : 1;
		if (!trailing.test(word.slice(end - size, end))) break;
		end -= size;
	}
	return word.slice(start, end);
}
