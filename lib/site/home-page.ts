/** The landing page: what the service does, its two machine surfaces, a demo in four calls. */
import { Block } from "./blocks";
import { Locale, docPath, localePath } from "./site-paths";

function demoCurl(base: string): string {
	return [
		`# 1. Create a demo session (no key needed)`,
		`curl -s -X POST ${base}/api/tools/sessions`,
		``,
		`# 2. Teach it something (use the session_id from step 1)`,
		`curl -s -X POST ${base}/api/tools/sessions/$SESSION_ID/texts \\`,
		`  -H 'Content-Type: application/json' \\`,
		`  -d '{"text":"Our shop opens 9:00-18:00, Monday to Saturday."}'`,
		``,
		`# 3. Train it, then poll until "status" is "ready"`,
		`curl -s -X POST ${base}/api/tools/sessions/$SESSION_ID/training`,
		`curl -s ${base}/api/tools/sessions/$SESSION_ID`
	].join("\n");
}

function demoCurlEs(base: string): string {
	return [
		`# 1. Crea una sesión de demostración (sin clave)`,
		`curl -s -X POST ${base}/api/tools/sessions \\`,
		`  -H 'Content-Type: application/json' -d '{"locale":"es"}'`,
		``,
		`# 2. Enséñale algo (usa el session_id del paso 1)`,
		`curl -s -X POST ${base}/api/tools/sessions/$SESSION_ID/texts \\`,
		`  -H 'Content-Type: application/json' \\`,
		`  -d '{"text":"La tienda abre de 9:00 a 18:00, de lunes a sábado."}'`,
		``,
		`# 3. Entrénalo y consulta hasta que "status" sea "ready"`,
		`curl -s -X POST ${base}/api/tools/sessions/$SESSION_ID/training`,
		`curl -s ${base}/api/tools/sessions/$SESSION_ID`
	].join("\n");
}

export interface PageCopy {
	title: string;
	description: string;
	blocks: Block[];
}

export function homeCopy(locale: Locale, base: string): PageCopy {
	const doc = (category: string, slug: string) => base + docPath(locale, category, slug);
	const page = (path: string) => base + localePath(locale, path);
	if (locale === "es") {
		return {
			title: "Chatbots que responden con tu propio contenido",
			description:
				"Crea chatbots entrenados con tus páginas web, archivos, textos y preguntas frecuentes. API de demostración sin clave y servidor de herramientas MCP.",
			blocks: [
				{
					kind: "hero",
					title: "Chatbots que responden con tu propio contenido",
					lead: "Indica tu sitio web, sube tus PDF y documentos de Word, pega textos o pares de pregunta y respuesta, y obtén un chatbot que responde citando sus fuentes: en tu web como widget o detrás de un enlace de chat.",
					actions: [
						{ label: "Prueba la API de demostración", href: doc("getting-started", "quickstart-demo-api"), primary: true },
						{ label: "Conecta un agente por MCP", href: doc("getting-started", "quickstart-mcp") },
						{ label: "Lee la documentación", href: page("/docs") }
					]
				},
				{
					kind: "sandbox-form",
					form: {
						action: `${base}/sandbox/new`,
						endpoint: `${base}/sandbox`,
						language: "es",
						heading: "Pruébalo con tu sitio web",
						label: "La dirección de tu sitio web",
						placeholder: "https://tu-sitio.es",
						button: "Crear mi chatbot",
						working: "Creando…",
						note: "Sin cuenta: leemos hasta 5 páginas, lo entrenamos y puedes chatear con él aquí mismo. Responde 10 mensajes y se borra a los 8 días, salvo que te lo quedes."
					}
				},
				{ kind: "heading", text: "Cómo funciona" },
				{
					kind: "cards",
					items: [
						{ title: "1. Añade fuentes", text: "Páginas web (leídas con un navegador sin interfaz, así que también las que construye JavaScript), archivos PDF, DOCX, DOC, TXT y Markdown, texto libre y pares de pregunta y respuesta." },
						{ title: "2. Entrena", text: "Dividimos el contenido en fragmentos y lo indexamos en segundo plano; el índice anterior sigue respondiendo hasta que el nuevo está completo." },
						{ title: "3. Publica", text: "Cada chatbot tiene un enlace de chat y un fragmento `<script>` para incrustarlo en cualquier web. Responde en inglés o en español." }
					]
				},
				{ kind: "heading", text: "Dos superficies para programas" },
				{
					kind: "cards",
					items: [
						{
							title: "API de demostración",
							text: "`/api/tools/*`, sin clave. Crea una sesión, añade fuentes, entrena y pregunta. El `session_id` opaco autoriza cada llamada.",
							link: { label: "Guía rápida de la API", href: doc("getting-started", "quickstart-demo-api") }
						},
						{
							title: "Servidor de herramientas MCP",
							text: "`POST /mcp`, JSON-RPC 2.0 sobre Streamable HTTP. Sin cuenta obtienes un chatbot de prueba y un enlace para reclamarlo; con una clave de API trabajas con los chatbots de tu cuenta.",
							link: { label: "Guía rápida de MCP", href: doc("getting-started", "quickstart-mcp") }
						}
					]
				},
				{ kind: "heading", text: "Pruébalo en la terminal" },
				{ kind: "code", lang: "bash", code: demoCurlEs(base) },
				{
					kind: "paragraph",
					text: `El índice de la API en [\`/api\`](${base}/api) y el documento OpenAPI en [\`/openapi.json\`](${base}/openapi.json) describen cada operación. Los agentes pueden empezar por [\`/llms.txt\`](${base}/llms.txt).`
				},
				{ kind: "heading", text: "Quédate con tu chatbot" },
				{
					kind: "paragraph",
					text: "Crea una cuenta para conservar los chatbots que hiciste como invitado, generar claves de API y trabajar con los límites de tu plan."
				},
				{
					kind: "actions",
					actions: [
						{ label: "Crear una cuenta", href: `${base}/account/signup`, primary: true },
						{ label: "Página para desarrolladores", href: page("/developers") }
					]
				}
			]
		};
	}
	return {
		title: "Chatbots that answer from your own content",
		description:
			"Build chatbots trained on your web pages, files, text and Q&A pairs. A keyless demo API and an MCP tool server for agents.",
		blocks: [
			{
				kind: "hero",
				title: "Chatbots that answer from your own content",
				lead: "Point it at your website, upload your PDFs and Word documents, paste text or question-and-answer pairs, and get a chatbot that answers with citations: on your site as a widget, or behind a chat link.",
				actions: [
					{ label: "Try the demo API", href: doc("getting-started", "quickstart-demo-api"), primary: true },
					{ label: "Connect an agent over MCP", href: doc("getting-started", "quickstart-mcp") },
					{ label: "Read the docs", href: page("/docs") }
				]
			},
			{
				kind: "sandbox-form",
				form: {
					action: `${base}/sandbox/new`,
					endpoint: `${base}/sandbox`,
					language: "en",
					heading: "Try it with your website",
					label: "Your website's address",
					placeholder: "https://your-site.com",
					button: "Build my chatbot",
					working: "Building…",
					note: "No account needed: we read up to 5 pages, train it, and you chat with it right here. It answers 10 messages and is deleted after 8 days unless you keep it."
				}
			},
			{ kind: "heading", text: "How it works" },
			{
				kind: "cards",
				items: [
					{ title: "1. Add sources", text: "Web pages (read with a headless browser, so pages built by JavaScript work too), PDF, DOCX, DOC, TXT and Markdown files, free text and question-and-answer pairs." },
					{ title: "2. Train", text: "Your content is split into passages and indexed in the background; the previous index keeps answering until the new one is complete." },
					{ title: "3. Deploy", text: "Every chatbot gets a chat link and a one-line `<script>` embed for any website. It answers in English or Spanish and cites its sources." }
				]
			},
			{ kind: "heading", text: "Two surfaces for programs" },
			{
				kind: "cards",
				items: [
					{
						title: "Demo API",
						text: "`/api/tools/*`, no key. Create a session, add sources, train and ask. The opaque `session_id` in the path authorizes every call.",
						link: { label: "Demo API quick start", href: doc("getting-started", "quickstart-demo-api") }
					},
					{
						title: "MCP tool server",
						text: "`POST /mcp`, JSON-RPC 2.0 over Streamable HTTP. Without an account an agent gets a sandbox chatbot and a claim link for its human; with an API key it works on the account's chatbots.",
						link: { label: "MCP quick start", href: doc("getting-started", "quickstart-mcp") }
					}
				]
			},
			{ kind: "heading", text: "Try it from a terminal" },
			{ kind: "code", lang: "bash", code: demoCurl(base) },
			{
				kind: "paragraph",
				text: `The API index at [\`/api\`](${base}/api) and the OpenAPI document at [\`/openapi.json\`](${base}/openapi.json) describe every operation. Agents can start from [\`/llms.txt\`](${base}/llms.txt).`
			},
			{ kind: "heading", text: "Keep your chatbot" },
			{
				kind: "paragraph",
				text: "Create an account to keep chatbots you made as a guest, issue API keys and work under your plan's limits."
			},
			{
				kind: "actions",
				actions: [
					{ label: "Create an account", href: `${base}/account/signup`, primary: true },
					{ label: "Developer page", href: page("/developers") }
				]
			}
		]
	};
}
