/** The developer page: the demo API at a glance, how to connect an MCP client, where the specs live. */
import { Block } from "./blocks";
import type { PageCopy } from "./home-page";
import { Locale, docPath, localePath } from "./site-paths";

/** The seven demo operations (SPEC §4.1) and the docs page of each. */
export const DEMO_OPERATIONS: ReadonlyArray<{
	operationId: string;
	method: "GET" | "POST";
	path: string;
	slug: string;
	summary: Record<Locale, string>;
}> = [
	{ operationId: "createDemoSession", method: "POST", path: "/api/tools/sessions", slug: "create-session", summary: { en: "Create a demo session", es: "Crear una sesión de demostración" } },
	{ operationId: "getDemoSession", method: "GET", path: "/api/tools/sessions/{session_id}", slug: "get-session", summary: { en: "Read a session, its sources and status", es: "Leer una sesión, sus fuentes y su estado" } },
	{ operationId: "addDemoSessionUrl", method: "POST", path: "/api/tools/sessions/{session_id}/urls", slug: "add-url", summary: { en: "Fetch a web page and attach its text", es: "Leer una página web y adjuntar su texto" } },
	{ operationId: "addDemoSessionText", method: "POST", path: "/api/tools/sessions/{session_id}/texts", slug: "add-text", summary: { en: "Attach free text", es: "Adjuntar texto libre" } },
	{ operationId: "createDemoSessionUpload", method: "POST", path: "/api/tools/sessions/{session_id}/uploads", slug: "create-upload", summary: { en: "Get a presigned upload URL for a file", es: "Obtener una URL de subida firmada para un archivo" } },
	{ operationId: "addDemoSessionFile", method: "POST", path: "/api/tools/sessions/{session_id}/files", slug: "add-file", summary: { en: "Attach an uploaded file", es: "Adjuntar un archivo subido" } },
	{ operationId: "trainDemoSession", method: "POST", path: "/api/tools/sessions/{session_id}/training", slug: "train-session", summary: { en: "Start training", es: "Iniciar el entrenamiento" } }
];

function mcpClientConfig(base: string): string {
	return JSON.stringify(
		{
			mcpServers: {
				"chatbot-builder": {
					type: "http",
					url: `${base}/mcp`,
					headers: { Authorization: "Bearer cbk_live_…" }
				}
			}
		},
		null,
		2
	);
}

export function developersCopy(locale: Locale, base: string): PageCopy {
	const doc = (category: string, slug: string) => base + docPath(locale, category, slug);
	const es = locale === "es";
	const table: Block = {
		kind: "table",
		head: es ? ["Método y ruta", "operationId", "Qué hace"] : ["Method and path", "operationId", "What it does"],
		rows: DEMO_OPERATIONS.map(op => [
			`\`${op.method} ${op.path}\``,
			`[\`${op.operationId}\`](${doc("api", op.slug)})`,
			op.summary[locale]
		])
	};
	const machineLinks: Block = {
		kind: "list",
		items: es
			? [
					`[\`/api\`](${base}/api): índice de la API con endpoints, límites de uso, errores y versionado.`,
					`[\`/openapi.json\`](${base}/openapi.json) y [\`/openapi.yaml\`](${base}/openapi.yaml): el documento OpenAPI 3.1.`,
					`[\`/.well-known/mcp.json\`](${base}/.well-known/mcp.json): el manifiesto MCP con las herramientas anónimas.`,
					`[\`/llms.txt\`](${base}/llms.txt) y [\`/llms-full.txt\`](${base}/llms-full.txt): el sitio para modelos de lenguaje.`,
					`[Documentación](${base}${localePath(locale, "/docs")}): guías y referencia, también en Markdown (añade \`.md\` a la URL de cualquier página).`
				]
			: [
					`[\`/api\`](${base}/api): the API index with endpoints, rate limits, errors and versioning.`,
					`[\`/openapi.json\`](${base}/openapi.json) and [\`/openapi.yaml\`](${base}/openapi.yaml): the OpenAPI 3.1 document.`,
					`[\`/.well-known/mcp.json\`](${base}/.well-known/mcp.json): the MCP manifest with the anonymous tools.`,
					`[\`/llms.txt\`](${base}/llms.txt) and [\`/llms-full.txt\`](${base}/llms-full.txt): the site for language models.`,
					`[Documentation](${base}${localePath(locale, "/docs")}): guides and reference, also as Markdown (add \`.md\` to any page URL).`
				]
	};
	if (es) {
		return {
			title: "Desarrolladores",
			description: "La API de demostración, el servidor de herramientas MCP y los documentos para programas, en una página.",
			blocks: [
				{
					kind: "hero",
					title: "Para desarrolladores",
					lead: "Dos superficies públicas: una API de demostración sin clave y un servidor de herramientas MCP. Todo devuelve JSON, todos los errores tienen un `code` estable y cada respuesta indica su versión en `API-Version`.",
					actions: [
						{ label: "Guía rápida de la API", href: doc("getting-started", "quickstart-demo-api"), primary: true },
						{ label: "Guía rápida de MCP", href: doc("getting-started", "quickstart-mcp") }
					]
				},
				{ kind: "heading", text: "API de demostración" },
				{
					kind: "paragraph",
					text: `Todas las operaciones están bajo \`${base}/api/tools\`. Crear una sesión no necesita nada; las demás llamadas llevan el \`session_id\` en la ruta. Límite: 30 solicitudes por minuto y por IP.`
				},
				table,
				{ kind: "heading", text: "Servidor de herramientas MCP" },
				{
					kind: "paragraph",
					text: `Apunta tu cliente MCP a \`${base}/mcp\` (transporte Streamable HTTP). Sin cabecera \`Authorization\` trabajas en modo de prueba; con una clave de API (empieza por \`cbk_live_\`) trabajas con los chatbots de tu cuenta. Muchos clientes aceptan una entrada como esta:`
				},
				{ kind: "code", lang: "json", code: mcpClientConfig(base) },
				{
					kind: "paragraph",
					text: `Quita \`headers\` para trabajar de forma anónima. Detalles en [el resumen del servidor MCP](${doc("mcp", "overview")}) y [sus herramientas](${doc("mcp", "tools")}).`
				},
				{ kind: "heading", text: "Documentos para programas" },
				machineLinks
			]
		};
	}
	return {
		title: "Developers",
		description: "The demo API, the MCP tool server and the machine-readable documents, on one page.",
		blocks: [
			{
				kind: "hero",
				title: "For developers",
				lead: "Two public surfaces: a keyless demo API and an MCP tool server. Everything answers JSON, every error carries a stable `code`, and every response states its contract version in `API-Version`.",
				actions: [
					{ label: "Demo API quick start", href: doc("getting-started", "quickstart-demo-api"), primary: true },
					{ label: "MCP quick start", href: doc("getting-started", "quickstart-mcp") }
				]
			},
			{ kind: "heading", text: "Demo API" },
			{
				kind: "paragraph",
				text: `Every operation lives under \`${base}/api/tools\`. Creating a session needs nothing; every later call carries the \`session_id\` in its path. Budget: 30 requests a minute per IP address.`
			},
			table,
			{ kind: "heading", text: "MCP tool server" },
			{
				kind: "paragraph",
				text: `Point your MCP client at \`${base}/mcp\` (Streamable HTTP transport). Without an \`Authorization\` header you work in the sandbox; with an API key (it starts with \`cbk_live_\`) you work on your account's chatbots. Many clients accept an entry like this:`
			},
			{ kind: "code", lang: "json", code: mcpClientConfig(base) },
			{
				kind: "paragraph",
				text: `Drop \`headers\` to work anonymously. Details in [the MCP overview](${doc("mcp", "overview")}) and [the tool reference](${doc("mcp", "tools")}).`
			},
			{ kind: "heading", text: "Documents for programs" },
			machineLinks
		]
	};
}
