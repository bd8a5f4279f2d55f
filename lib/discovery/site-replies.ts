/**
 * What a site path answers: a page in the representation the client asked for, the `.md` source of
 * a documentation page, or the negotiated 404 when no such page exists.
 *
 * Pages are HTML unless `Accept` prefers `text/markdown`; both carry `Vary: Accept` so a cache
 * never hands one client the other's representation. A `.md` source is `text/plain` whatever the
 * client accepts (SPEC §4.3). Spanish falls back to English page by page (the catalog's rule).
 */
import { explicitlyAccepts, negotiate } from "../http/negotiate";
import type { DocsCatalog } from "../site/docs-catalog";
import { notFoundHtml, notFoundMarkdown } from "../site/not-found";
import { developersPage, docMarkdown, docsIndexPage, docsPage, homePage, SitePage } from "../site/pages";
import { parseSitePath } from "../site/site-paths";
import { conditionalReply, Reply, Representation } from "./conditional";

/** A reply to send, or a 404 the gateway must render as its JSON Error body. */
export type SiteReply = { kind: "reply"; reply: Reply } | { kind: "json-not-found"; path: string };

export const NOT_FOUND_HEADERS = { "Cache-Control": "no-store", Vary: "Accept" };

/**
 * The 404 of SPEC §7.3 rule 2, chosen exactly as the gateway chooses it for paths nothing serves: a
 * browser (naming text/html) gets the designed page, a client naming JSON gets the Error body,
 * anything else, `*\/*` included, the Markdown pointer document.
 */
export function notFoundReply(path: string, accept: string | undefined, publicUrl: string): SiteReply {
	if (explicitlyAccepts(accept, "text/html") && negotiate(accept, ["text/html", "application/json", "text/markdown"]) === "text/html") {
		return { kind: "reply", reply: { status: 404, body: notFoundHtml(publicUrl, path), contentType: "text/html; charset=utf-8", headers: NOT_FOUND_HEADERS } };
	}
	if (explicitlyAccepts(accept, "application/json") && negotiate(accept, ["application/json", "text/markdown"]) === "application/json") {
		return { kind: "json-not-found", path };
	}
	return { kind: "reply", reply: { status: 404, body: notFoundMarkdown(publicUrl, path), contentType: "text/markdown; charset=utf-8", headers: NOT_FOUND_HEADERS } };
}

/** HTML unless the client prefers Markdown. Browsers send `text/html` first; `*\/*` gets HTML. */
export function wantsMarkdown(accept: string | undefined): boolean {
	return negotiate(accept, ["text/html", "text/markdown"]) === "text/markdown";
}

function pageRepresentation(page: SitePage, accept: string | undefined): Representation {
	const headers = { Vary: "Accept" };
	return wantsMarkdown(accept)
		? { body: page.markdown, contentType: "text/markdown; charset=utf-8", headers }
		: { body: page.html, contentType: "text/html; charset=utf-8", headers };
}

export interface SiteRequest {
	/** The request path without its query string, e.g. `/es/docs/api/add-url.md`. */
	path: string;
	accept: string | undefined;
	ifNoneMatch: string | undefined;
	publicUrl: string;
	catalog?: DocsCatalog;
}

export function siteReply(req: SiteRequest): SiteReply {
	const target = parseSitePath(req.path);
	const base = req.publicUrl;
	let rep: Representation | undefined;
	if (target?.kind === "home") rep = pageRepresentation(homePage(target.locale, base), req.accept);
	else if (target?.kind === "developers") rep = pageRepresentation(developersPage(target.locale, base), req.accept);
	else if (target?.kind === "docs-index") rep = pageRepresentation(docsIndexPage(target.locale, base, req.catalog), req.accept);
	else if (target?.kind === "doc" && target.markdown) {
		const source = docMarkdown(target.locale, target.category, target.slug, base, req.catalog);
		if (source) rep = { body: source.markdown, contentType: "text/plain; charset=utf-8" };
	} else if (target?.kind === "doc") {
		const page = docsPage(target.locale, target.category, target.slug, base, req.catalog);
		if (page) rep = pageRepresentation(page, req.accept);
	}
	if (!rep) return notFoundReply(req.path, req.accept, base);
	return { kind: "reply", reply: conditionalReply(rep, req.ifNoneMatch) };
}
