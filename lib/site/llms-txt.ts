/**
 * `/llms.txt` and `/llms-full.txt` (llmstxt.org): the site index for language models.
 *
 * `llms.txt` is an H1, a one-paragraph summary in a blockquote, a short orientation, then `## `
 * sections of `- [title](url): note` lines. Documentation links point at the `.md` sources, which an
 * agent reads without HTML noise. The "Optional" section is the one the format lets a reader skip.
 */
import { CATEGORIES, DocsCatalog, defaultDocsCatalog, markdownSource } from "./docs-catalog";
import { SITE_NAME } from "./layout";
import { DEFAULT_LOCALE, docPath, localePath } from "./site-paths";

const SUMMARY =
	"Build chatbots that answer from your own content (web pages, PDF/DOCX/DOC/TXT/Markdown files, free text, question-and-answer pairs), " +
	"then share them by chat link or embed them as a website widget. Two machine surfaces are public: a keyless demo API under /api/tools/* " +
	"and an MCP tool server at POST /mcp (JSON-RPC 2.0, Streamable HTTP).";

const oneLine = (text: string) => text.replace(/\s+/g, " ").trim();

export function llmsTxt(baseUrl: string, catalog: DocsCatalog = defaultDocsCatalog()): string {
	const lines: string[] = [
		`# ${SITE_NAME}`,
		"",
		`> ${SUMMARY}`,
		"",
		"Start with the demo API quick start or the MCP quick start. No key is needed for the demo API or for anonymous MCP use; " +
			"an account API key (prefix `cbk_live_`) is accepted only by `/mcp`. Every error is JSON with a stable `code`. " +
			"Documentation links below point at Markdown sources; drop `.md` for the HTML page, or prefix the path with `/es` for Spanish.",
		""
	];
	const nav = catalog.nav(DEFAULT_LOCALE);
	for (const category of CATEGORIES) {
		const section = nav.find(c => c.id === category.id);
		if (!section) continue;
		lines.push(`## ${category.title.en}`, "");
		for (const page of section.pages) {
			lines.push(`- [${page.title}](${baseUrl + docPath(DEFAULT_LOCALE, category.id, page.slug, true)}): ${oneLine(page.description)}`);
		}
		lines.push("");
	}
	lines.push(
		"## API and tool-server descriptions",
		"",
		`- [API index](${baseUrl}/api): JSON index of every endpoint, rate-limit policies, error format, versioning and MCP details`,
		`- [OpenAPI document](${baseUrl}/openapi.json): OpenAPI 3.1 description of every operation and schema (JSON)`,
		`- [OpenAPI document, YAML](${baseUrl}/openapi.yaml): the same document as application/yaml`,
		`- [MCP manifest](${baseUrl}/.well-known/mcp.json): the anonymous tool set exactly as tools/list returns it`,
		`- [MCP server card](${baseUrl}/.well-known/mcp/server-card.json): server info, transport and capabilities`,
		`- [MCP endpoint manifest](${baseUrl}/.well-known/mcp): endpoints, transport and authentication of the tool server`,
		`- [Health](${baseUrl}/v2/health): liveness of the service and its database`,
		"",
		"## Optional",
		"",
		`- [Full documentation](${baseUrl}/llms-full.txt): every English documentation page in one plain-text file`,
		`- [Developer page](${baseUrl}/developers): the demo API at a glance and how to connect an MCP client (send \`Accept: text/markdown\` for Markdown)`,
		`- [Documentación en español](${baseUrl + localePath("es", "/docs")}): Spanish documentation (untranslated pages show the English text)`,
		`- [Sitemap](${baseUrl}/sitemap.xml): every page of the site in English and Spanish`,
		""
	);
	return lines.join("\n");
}

/** The body without its leading `# Title` line, which the concatenation replaces with its own header. */
function withoutLeadingTitle(markdown: string): string {
	return markdown.replace(/^# [^\n]*\n+/, "");
}

export function llmsFullTxt(baseUrl: string, catalog: DocsCatalog = defaultDocsCatalog()): string {
	const parts: string[] = [`# ${SITE_NAME}: full documentation`, "", `> ${SUMMARY}`, ""];
	for (const { doc } of catalog.list(DEFAULT_LOCALE)) {
		const source = baseUrl + docPath(DEFAULT_LOCALE, doc.category, doc.slug, true);
		parts.push("---", "", `# ${doc.title}`, "", `Source: ${source}`, "", withoutLeadingTitle(markdownSource(doc, baseUrl)).trimEnd(), "");
	}
	return parts.join("\n");
}
