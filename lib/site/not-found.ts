/**
 * The 404 for paths outside the JSON surfaces (SPEC §7.3 rule 2): a designed HTML page for browsers,
 * and a short Markdown document for everything else that is not asking for JSON.
 * (The JSON body is rendered by the gateway's error renderer.)
 */
const escapeHtml = (s: string) =>
	s.replace(/[&<>"']/g, c => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c] as string);

export function notFoundMarkdown(publicUrl: string, path: string): string {
	return [
		"# Page not found",
		"",
		`Nothing lives at \`${path}\`. These will help you find your way:`,
		"",
		`- [Sitemap](${publicUrl}/sitemap.xml): every page of the site`,
		`- [llms.txt](${publicUrl}/llms.txt): the site index for language models`,
		`- [Documentation](${publicUrl}/docs): guides and reference`,
		`- [Developers](${publicUrl}/developers): the demo API and the MCP tool server`,
		""
	].join("\n");
}

export function notFoundHtml(publicUrl: string, path: string): string {
	return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>Page not found</title></head>
<body><main><h1>Page not found</h1><p>Nothing lives at <code>${escapeHtml(path)}</code>.</p>
<ul><li><a href="${publicUrl}/">Home</a></li><li><a href="${publicUrl}/docs">Documentation</a></li>
<li><a href="${publicUrl}/developers">Developers</a></li><li><a href="${publicUrl}/sitemap.xml">Sitemap</a></li></ul>
</main></body></html>`;
}
