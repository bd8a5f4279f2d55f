/**
 * discovery: the documents that let people and programs find and learn the service (SPEC §2.8,
 * §4.3) — the API index, the OpenAPI document in JSON and YAML, the MCP descriptors, llms.txt, the
 * sitemap — and the documentation site with its Markdown sources. Nothing persistent: every body is
 * rebuilt from the route table, the schemas and the docs catalog, and carries a strong ETag. Each
 * action returns its reply (`reply: "http"`, middlewares/http-reply.middleware.ts): a 200, or a 304
 * with no body.
 */
import type { ServiceSchema, ServiceSettingSchema } from "moleculer";
import type { AppConfig } from "../config";
import { DocumentName, DOCUMENT_NAMES, DocumentSources, renderDocument } from "../lib/discovery/documents";
import { conditionalReply } from "../lib/discovery/conditional";
import { NOT_FOUND_HEADERS, siteReply } from "../lib/discovery/site-replies";
import { appError } from "../lib/errors";
import { RATE_POLICIES } from "../lib/http/rate-policies";
import { ROUTES } from "../lib/http/routes";
import { SITE_PAGE_KINDS, SitePageKind } from "../lib/http/routes/site";
import { SCHEMAS } from "../lib/http/schemas";
import { DEPRECATIONS } from "../lib/http/versioning";
import { docPath, LOCALES, Locale, localePath } from "../lib/site/site-paths";
import type { HttpContext } from "../middlewares/http-context";

type C<P = Record<string, unknown>> = HttpContext<P>;
type DocParams = { category: string; slug: string };
/** A documentation page's path parameters (other pages take none). */
const DOC_PARAMS = { category: "string", slug: "string" };

export default function createDiscoveryService(config: Readonly<AppConfig>): ServiceSchema<ServiceSettingSchema> {
	// Read at request time, not captured: routes registered by other areas show up in the documents.
	const sources = (): DocumentSources => ({
		publicUrl: config.publicUrl,
		routes: ROUTES,
		schemas: SCHEMAS,
		ratePolicies: Object.values(RATE_POLICIES),
		deprecations: DEPRECATIONS,
		demoTtlHours: config.demo.ttlHours,
		contactEmail: config.contactEmail
	});

	const documentAction = (name: DocumentName) => ({
		reply: "http" as const,
		handler(ctx: C) {
			return conditionalReply(renderDocument(name, sources()), ctx.meta.headers?.["if-none-match"]);
		}
	});

	const siteAction = (pathOf: (params: DocParams) => string, params?: typeof DOC_PARAMS) => ({
		reply: "http" as const,
		params,
		handler(ctx: C<DocParams>) {
			const path = pathOf(ctx.params);
			const result = siteReply({
				path,
				accept: ctx.meta.headers?.accept,
				ifNoneMatch: ctx.meta.headers?.["if-none-match"],
				publicUrl: config.publicUrl
			});
			if (result.kind === "json-not-found") {
				throw appError("not_found", `Nothing lives at ${result.path}.`, { headers: NOT_FOUND_HEADERS });
			}
			return result.reply;
		}
	});

	const pageAction = (kind: SitePageKind, locale: Locale) =>
		kind === "doc"
			? siteAction(params => docPath(locale, params.category, params.slug), DOC_PARAMS)
			: siteAction(() => localePath(locale, kind === "home" ? "/" : `/${kind}`));

	const actions: NonNullable<ServiceSchema["actions"]> = {};
	for (const name of DOCUMENT_NAMES) actions[name] = documentAction(name);
	for (const locale of LOCALES) {
		// Action names match the route table: `discovery.docSource.<locale>`, `discovery.page.<kind>.<locale>`.
		actions[`docSource.${locale}`] = siteAction(params => docPath(locale, params.category, params.slug, true), DOC_PARAMS);
		for (const kind of SITE_PAGE_KINDS) actions[`page.${kind}.${locale}`] = pageAction(kind, locale);
	}

	return { name: "discovery", actions };
}
