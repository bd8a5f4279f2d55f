/** Types for snowball-stemmers 0.6, which ships none. Only the part this project calls. */
declare module "snowball-stemmers" {
	export interface Stemmer {
		stem(word: string): string;
	}
	export function newStemmer(algorithm: string): Stemmer;
	export function algorithms(): string[];
}
