/**
 * The human site: home, developer page, docs index and documentation pages, in every locale
 * (English at the root, Spanish under `/es`). Served, not documented: they are HTML for people,
 * with a Markdown representation for `Accept: text/markdown` (and `Vary: Accept`).
 */
import { LOCALES, localePath } from "../../site/site-paths";
import { DOC_PAGE_PARAMS } from "./discovery";
import type { RouteDef } from "./types";

export const SITE_PAGE_KINDS = ["home", "developers", "docs", "doc"] as const;
export type SitePageKind = (typeof SITE_PAGE_KINDS)[number];

const PATHS: Record<SitePageKind, string> = {
	home: "/",
	developers: "/developers",
	docs: "/docs",
	doc: "/docs/{category}/{slug}"
};

const SUMMARIES: Record<SitePageKind, string> = {
	home: "Landing page",
	developers: "Developer page",
	docs: "Documentation index",
	doc: "Documentation page"
};

const page = (description: string) => ({
	description,
	content: { "text/html": { type: "string" }, "text/markdown": { type: "string" } },
	headers: ["Vary", "ETag", "Cache-Control"]
});

export const siteRoutes: RouteDef[] = LOCALES.flatMap(locale =>
	SITE_PAGE_KINDS.map(
		(kind): RouteDef => ({
			operationId: `get${kind[0].toUpperCase()}${kind.slice(1)}Page_${locale}`,
			method: "GET",
			path: localePath(locale, PATHS[kind]),
			summary: `${SUMMARIES[kind]} (${locale})`,
			tags: ["Site"],
			action: `discovery.page.${kind}.${locale}`,
			params: kind === "doc" ? DOC_PAGE_PARAMS : undefined,
			responses: {
				"200": page("HTML for browsers; Markdown when `Accept` prefers `text/markdown`."),
				"304": { description: "Not modified.", headers: ["Vary", "ETag", "Cache-Control"] },
				"404": { description: "No such page (doc pages only): the negotiated 404." }
			},
			documented: false
		})
	)
);
