/**
 * discovery: the documents that let people and programs find and learn the service (SPEC §2.8,
 * §4.3) — the API index, the OpenAPI document in JSON and YAML, the MCP descriptors, llms.txt, the
 * sitemap — and the documentation site with its Markdown sources. Nothing persistent: every body is
 * rebuilt from the route table, the schemas and the docs catalog, and carries a strong ETag.
 */
import type { Context, ServiceSchema, ServiceSettingSchema } from "moleculer";
import type { AppConfig } from "../config";
import { DocumentName, DOCUMENT_NAMES, DocumentSources, renderDocument } from "../lib/discovery/documents";
import type { Reply } from "../lib/discovery/conditional";
import { conditionalReply } from "../lib/discovery/conditional";
import { NOT_FOUND_HEADERS, siteReply } from "../lib/discovery/site-replies";
import { appError } from "../lib/errors";
import { RATE_POLICIES } from "../lib/http/rate-policies";
import { ROUTES } from "../lib/http/routes";
import { SITE_PAGE_KINDS, SitePageKind } from "../lib/http/routes/site";
import { SCHEMAS } from "../lib/http/schemas";
import { DEPRECATIONS } from "../lib/http/versioning";
import { docPath, LOCALES, Locale, localePath } from "../lib/site/site-paths";

interface RequestMeta {
	headers?: { accept?: string; "if-none-match"?: string };
	$statusCode?: number;
	$responseType?: string;
	$responseHeaders?: Record<string, string>;
}

type C<P = Record<string, unknown>> = Context<P, RequestMeta>;
type DocParams = { category?: unknown; slug?: unknown };

/** Puts a reply on the context for moleculer-web; a 304 returns no body at all. */
function send(ctx: C<unknown>, reply: Reply): string | undefined {
	ctx.meta.$statusCode = reply.status;
	ctx.meta.$responseHeaders = { ...reply.headers };
	if (reply.body === undefined) return undefined;
	ctx.meta.$responseType = reply.contentType;
	return reply.body;
}

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
		handler(ctx: C) {
			return send(ctx, conditionalReply(renderDocument(name, sources()), ctx.meta.headers?.["if-none-match"]));
		}
	});

	const siteAction = (pathOf: (params: DocParams) => string) => ({
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
			return send(ctx, result.reply);
		}
	});

	const param = (value: unknown) => (typeof value === "string" ? value : "");
	const pagePath = (kind: SitePageKind, locale: Locale) => (params: DocParams) => {
		if (kind === "doc") return docPath(locale, param(params.category), param(params.slug));
		return localePath(locale, kind === "home" ? "/" : `/${kind}`);
	};

	const actions: NonNullable<ServiceSchema["actions"]> = {};
	for (const name of DOCUMENT_NAMES) actions[name] = documentAction(name);
	for (const locale of LOCALES) {
		// Action names match the route table: `discovery.docSource.<locale>`, `discovery.page.<kind>.<locale>`.
		actions[`docSource.${locale}`] = siteAction(params => docPath(locale, param(params.category), param(params.slug), true));
		for (const kind of SITE_PAGE_KINDS) actions[`page.${kind}.${locale}`] = siteAction(pagePath(kind, locale));
	}

	return { name: "discovery", actions };
}
