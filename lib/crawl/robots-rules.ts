/**
 * robots.txt rules (RFC 9309): groups of user agents with allow and disallow patterns, and the
 * decision for one URL. Written here rather than taken from a package because matching must stay
 * linear in the input: the common matcher compares every pattern position with every path position,
 * so a hostile file of long wildcard rules costs seconds of CPU for one page. Here a pattern is split
 * at its `*`s and each literal piece is found with `indexOf` after the previous one (leftmost is
 * always the best choice when `*` is the only wildcard), so a rule costs about one pass over the path.
 */

interface Rule {
	allow: boolean;
	/** Literal pieces between the `*`s, in order (percent-encoding normalised). */
	pieces: string[];
	/** The pattern ended in `$`: the path must end where the last piece ends. */
	anchored: boolean;
	/** Length of the pattern as written; the longest matching pattern decides. */
	specificity: number;
}

export interface RobotsRules {
	/** Rules by lower-case product token; `*` holds the rules for every other crawler. */
	groups: Map<string, Rule[]>;
}

/** The product token of a user agent ("ChatbotBuilder/1.0 (+https://…)" → "chatbotbuilder"). */
export function productToken(userAgent: string): string {
	const token = userAgent.trim().split(/[/\s]/, 1)[0] ?? "";
	return token.toLowerCase();
}

/**
 * One spelling for equal paths: percent-escapes of characters that need none are decoded, and
 * characters that need one are escaped, so `/%7Euser` and `/~user` compare equal.
 */
function normalizeEncoding(path: string): string {
	try {
		return encodeURI(decodeURI(path));
	} catch {
		// A malformed escape: compare as written.
		return path;
	}
}

function parseRule(allow: boolean, pattern: string): Rule {
	const anchored = pattern.endsWith("$");
	const body = normalizeEncoding(anchored ? pattern.slice(0, -1) : pattern);
	return { allow, pieces: body.split("*"), anchored, specificity: pattern.length };
}

/** Reads a robots.txt; lines that are not `user-agent`, `allow` or `disallow` are skipped. */
export function parseRobots(text: string): RobotsRules {
	const groups = new Map<string, Rule[]>();
	let agents: string[] = [];
	// Consecutive user-agent lines share the rules that follow them; a user-agent line after a rule
	// starts a new group.
	let lastWasAgent = false;
	for (const rawLine of text.split("\n")) {
		const hash = rawLine.indexOf("#");
		const line = hash === -1 ? rawLine : rawLine.slice(0, hash);
		const colon = line.indexOf(":");
		if (colon === -1) continue;
		const key = line.slice(0, colon).trim().toLowerCase();
		const value = line.slice(colon + 1).trim();
		if (key === "user-agent") {
			if (!lastWasAgent) agents = [];
			agents.push(productToken(value) || "*");
			lastWasAgent = true;
			continue;
		}
		if (key !== "allow" && key !== "disallow") continue;
		lastWasAgent = false;
		// An empty disallow allows everything, which is what having no rule means.
		if (value === "" || agents.length === 0) continue;
		const rule = parseRule(key === "allow", value);
		for (const agent of agents) {
			const rules = groups.get(agent) ?? [];
			rules.push(rule);
			groups.set(agent, rules);
		}
	}
	return { groups };
}

/** Whether `path` matches the rule's pattern (patterns match from the path's start). */
function ruleMatches(rule: Rule, path: string): boolean {
	const { pieces, anchored } = rule;
	const first = pieces[0];
	if (!path.startsWith(first)) return false;
	if (pieces.length === 1) return anchored ? path.length === first.length : true;
	let position = first.length;
	for (let i = 1; i < pieces.length - 1; i++) {
		const found = path.indexOf(pieces[i], position);
		if (found === -1) return false;
		position = found + pieces[i].length;
	}
	const last = pieces[pieces.length - 1];
	if (anchored) return path.endsWith(last) && path.length - last.length >= position;
	return path.indexOf(last, position) !== -1;
}

/**
 * Whether a crawler calling itself `userAgent` may fetch `url`. The group named by the crawler's
 * product token applies, else the `*` group; within it the longest matching pattern decides, and
 * `allow` wins a tie (RFC 9309 §2.2.2). No matching rule means allowed.
 */
export function robotsAllow(rules: RobotsRules, url: string, userAgent: string): boolean {
	const group = rules.groups.get(productToken(userAgent)) ?? rules.groups.get("*");
	if (!group) return true;
	const parsed = new URL(url);
	const path = normalizeEncoding(parsed.pathname + parsed.search);
	let decided: Rule | undefined;
	for (const rule of group) {
		if (decided && (rule.specificity < decided.specificity || (rule.specificity === decided.specificity && decided.allow))) continue;
		if (ruleMatches(rule, path)) decided = rule;
	}
	return decided ? decided.allow : true;
}
