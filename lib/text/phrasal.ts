/**
 * English phrasal verbs ("leave out", "turn off", "sign in"): a verb and a particle that together
 * mean what one word does elsewhere ("exclude", "disable", "log in"). The particle is a stop word
 * and the verb alone means something else, so the pair gets a key of its own, the verb's term and
 * the particle ("leav_out"), under which the related-words file (bin/build-related-words.ts) lists
 * the pair's single-word synonyms.
 */
import { analyze } from "./tokenize";

export const PHRASAL_PARTICLES: ReadonlySet<string> = new Set(["out", "off", "on", "up", "down", "in", "back", "over", "away"]);

/** The key of a verb and particle ("leave", "out" → "leav_out"), or undefined when the verb has no term. */
export function phrasalKey(verb: string, particle: string): string | undefined {
	const [term, ...more] = analyze(verb, "en");
	return term && more.length === 0 ? `${term}_${particle}` : undefined;
}

/** The phrasal verbs written in English text, each with its verb's term: "How do I leave out…" → [{ term: "leav", key: "leav_out" }]. */
export function phrasalVerbs(text: string): Array<{ term: string; key: string }> {
	const words = text.toLowerCase().split(/[^a-z']+/).filter(Boolean);
	const found: Array<{ term: string; key: string }> = [];
	for (let i = 0; i + 1 < words.length; i++) {
		if (!PHRASAL_PARTICLES.has(words[i + 1])) continue;
		const key = phrasalKey(words[i], words[i + 1]);
		if (key) found.push({ term: key.slice(0, key.lastIndexOf("_")), key });
	}
	return found;
}
