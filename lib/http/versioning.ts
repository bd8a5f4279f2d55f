/**
 * Versioning headers (SPEC §9): the contract version, the discovery `Link` relations on every
 * response, and the deprecation machinery driven by one table.
 */
export const API_VERSION = "1.0.0";
export const API_MAJOR = 1;

/** A surface on its way out: every path under `pathPrefix` answers with the deprecation headers. */
export interface DeprecationEntry {
	pathPrefix: string;
	deprecatedAt: Date;
	sunsetAt: Date;
	/** Absolute URL of the replacement surface. */
	successor: string;
}

/**
 * The production table. Empty: nothing is scheduled for removal. A breaking change adds its old
 * prefix here for the whole notice period; `/api` reports the same table in `versioning.deprecations`.
 */
export const DEPRECATIONS: readonly DeprecationEntry[] = [];

export function linkHeader(publicUrl: string): string {
	return [
		`<${publicUrl}/openapi.json>; rel="service-desc"; type="application/json"`,
		`<${publicUrl}/docs>; rel="service-doc"; type="text/html"`,
		`<${publicUrl}/docs/reference/versioning>; rel="deprecation-policy"`
	].join(", ");
}

export function findDeprecation(path: string, table: readonly DeprecationEntry[]): DeprecationEntry | undefined {
	return table.find(d => path === d.pathPrefix || path.startsWith(d.pathPrefix.endsWith("/") ? d.pathPrefix : `${d.pathPrefix}/`));
}

/** The three headers of SPEC §9 rule 3 for a deprecated surface. */
export function deprecationHeaders(entry: DeprecationEntry): { Deprecation: string; Sunset: string; Link: string } {
	return {
		Deprecation: `@${Math.floor(entry.deprecatedAt.getTime() / 1000)}`,
		Sunset: entry.sunsetAt.toUTCString(),
		Link: `<${entry.successor}>; rel="successor-version"`
	};
}
