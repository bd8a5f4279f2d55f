/**
 * Function words that carry no topic, per locale. They are dropped before stemming so that a
 * question like "How long is the warranty?" is matched on "long" and "warranty", not on "is" and
 * "the", which every chunk contains.
 *
 * Entries are written without accents: `analyze` compares accent-folded words, so "más", "mas",
 * "qué" and "que" are all caught by one entry (Spanish writers often drop accents in chat).
 */
import type { Locale } from "../locales";
export type { Locale } from "../locales";

const ENGLISH = `
a about above after again against all am an and any are aren't as at be because been before being
below between both but by can can't cannot could couldn't did didn't do does doesn't doing don't down
during each few for from further had hadn't has hasn't have haven't having he he'd he'll he's her here
here's hers herself him himself his how how's i i'd i'll i'm i've if in into is isn't it it's its itself
let's me more most mustn't my myself no nor not of off on once only or other ought our ours ourselves
out over own same shan't she she'd she'll she's should shouldn't so some such than that that's the
their theirs them themselves then there there's these they they'd they'll they're they've this those
through to too under until up very was wasn't we we'd we'll we're we've were weren't what what's when
when's where where's which while who who's whom why why's will with won't would wouldn't you you'd
you'll you're you've your yours yourself yourselves also just may might must shall us get got
please tell know does did say said
`;

const SPANISH = `
a al algo algun alguna algunas alguno algunos ante antes como con contra cual cuales cuando de del
desde donde dos el ella ellas ellos en entre era eran eres es esa esas ese eso esos esta estaba estaban
estado estamos estan estar estas este esto estos estoy fue fueron fui fuimos ha habia han has hasta hay
he la las le les lo los me mi mis mucho muchos muy nada ni no nos nosotras nosotros nuestra nuestras
nuestro nuestros o os otra otras otro otros para pero poco por porque que quien quienes se sea sean
ser si sido sin sobre sois somos son soy su sus suya suyas suyo suyos tambien tanto te tenemos tener
tengo ti tiene tienen todo todos tu tus tuya tuyas tuyo tuyos un una uno unos usted ustedes vosotras
vosotros vuestra vuestras vuestro vuestros y ya yo el mas cuanto cuanta cuantos cuantas puede pueden
puedo hacer hace hay dime decir favor
`;

function toSet(words: string): ReadonlySet<string> {
	return new Set(words.split(/\s+/).filter(Boolean));
}

const STOP_WORDS: Record<Locale, ReadonlySet<string>> = { en: toSet(ENGLISH), es: toSet(SPANISH) };

/** True when the accent-folded, lower-case `word` is a stop word of the locale. */
export function isStopWord(word: string, locale: Locale): boolean {
	return STOP_WORDS[locale].has(word);
}
