/** Minimal, correct `Accept` negotiation (RFC 9110 §12.5.1): media ranges with q-values. */

interface MediaRange {
	type: string;
	subtype: string;
	q: number;
	specificity: number;
}

function parseAccept(accept: string | undefined): MediaRange[] {
	if (!accept || !accept.trim()) return [{ type: "*", subtype: "*", q: 1, specificity: 0 }];
	const ranges: MediaRange[] = [];
	for (const part of accept.split(",")) {
		const [range, ...paramParts] = part.trim().split(";");
		const [type, subtype] = range.trim().toLowerCase().split("/");
		if (!type || !subtype) continue;
		let q = 1;
		for (const p of paramParts) {
			const [k, v] = p.trim().split("=");
			if (k?.trim().toLowerCase() === "q") {
				const parsed = Number(v);
				q = Number.isFinite(parsed) ? Math.min(Math.max(parsed, 0), 1) : 0;
			}
		}
		const specificity = type === "*" ? 0 : subtype === "*" ? 1 : 2;
		ranges.push({ type, subtype, q, specificity });
	}
	return ranges;
}

function qualityOf(ranges: MediaRange[], mediaType: string): number {
	const [type, subtype] = mediaType.toLowerCase().split("/");
	let best: MediaRange | undefined;
	for (const r of ranges) {
		const matches = (r.type === "*" || r.type === type) && (r.subtype === "*" || r.subtype === subtype);
		if (matches && (!best || r.specificity > best.specificity)) best = r;
	}
	return best ? best.q : 0;
}

/**
 * Picks the best of `offered` (in server preference order) for an Accept header, or undefined when
 * none is acceptable. Ties on quality go to the more specific range the client named, then to the
 * server's order.
 */
export function negotiate(accept: string | undefined, offered: readonly string[]): string | undefined {
	const ranges = parseAccept(accept);
	let chosen: string | undefined;
	let chosenScore = -1;
	for (const mediaType of offered) {
		const q = qualityOf(ranges, mediaType);
		if (q <= 0) continue;
		const [type, subtype] = mediaType.toLowerCase().split("/");
		const explicit = ranges.some(r => r.type === type && r.subtype === subtype && r.q === q) ? 0.0001 : 0;
		const score = q + explicit;
		if (score > chosenScore) {
			chosen = mediaType;
			chosenScore = score;
		}
	}
	return chosen;
}

/** True when the client names this exact media type (not only through a wildcard) with q > 0. */
export function explicitlyAccepts(accept: string | undefined, mediaType: string): boolean {
	const [type, subtype] = mediaType.toLowerCase().split("/");
	return parseAccept(accept).some(r => r.type === type && r.subtype === subtype && r.q > 0);
}
