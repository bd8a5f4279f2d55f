/**
 * The development set of the answer-quality benchmark: paraphrased questions written by hand over
 * seven corpora of real prose, each built like the chatbots people make (about five documentation
 * pages; the seventh is six sections of a specification). Nothing here is copied from the pages'
 * sentences: questions use other words on purpose.
 *
 * - `facts`: every one must appear in an answer for it to count as answered with the fact
 *   (compared case-insensitively, markdown marks and spacing ignored, a number only whole: "5" is
 *   not found in "500"); `a|b` accepts either.
 * - `pages`: the page keys that hold the fact, for citation correctness.
 * - `oos`: out of scope — the pages do not say; many are near misses on the same topic.
 * - `conv`: questions with the same conv id are asked in order in one conversation; later ones are
 *   follow-ups that only make sense with the earlier turns.
 *
 * The page texts are read at benchmark time (the project's docs, the handbook fixtures,
 * documentation shipped inside installed packages, and the CommonMark specification of the
 * `commonmark-spec` development dependency), never copied here.
 */
import type { Locale } from "../../lib/text/tokenize";

export interface CorpusPage {
	key: string;
	/** Path from the repository root. */
	file: string;
	/**
	 * For a long Markdown document, the section (a "## " heading's text) that is the page: up to the
	 * next heading of that level or above. The CommonMark spec is one file; its site shows it as one
	 * long page, which a chatbot's owner would more likely add section by section.
	 */
	section?: string;
}

export interface Corpus {
	name: string;
	locale: Locale;
	/** Where the prose comes from, for the report. */
	origin: string;
	pages: CorpusPage[];
}

export interface DevQuestion {
	id: string;
	corpus: string;
	q: string;
	facts: string[];
	pages: string[];
	oos: boolean;
	conv?: string;
}

export const CORPORA: Corpus[] = [
	{
		name: "docs-en-a",
		locale: "en",
		origin: "project docs (docs/en)",
		pages: [
			{ key: "chat", file: "docs/en/api/chat.md" },
			{ key: "widget", file: "docs/en/guides/widget.md" },
			{ key: "crawler", file: "docs/en/guides/crawler.md" },
			{ key: "limits", file: "docs/en/reference/limits.md" },
			{ key: "rate-limits", file: "docs/en/reference/rate-limits.md" }
		]
	},
	{
		name: "docs-en-b",
		locale: "en",
		origin: "project docs (docs/en)",
		pages: [
			{ key: "sandbox", file: "docs/en/mcp/sandbox-and-claiming.md" },
			{ key: "files", file: "docs/en/guides/files.md" },
			{ key: "versioning", file: "docs/en/reference/versioning.md" },
			{ key: "auth", file: "docs/en/reference/authentication.md" },
			{ key: "channels", file: "docs/en/guides/channels.md" }
		]
	},
	{
		name: "docs-es",
		locale: "es",
		origin: "project docs (docs/es)",
		pages: [
			{ key: "quickstart", file: "docs/es/getting-started/quickstart-demo-api.md" },
			{ key: "mcp", file: "docs/es/mcp/overview.md" },
			{ key: "sandbox", file: "docs/es/mcp/sandbox-and-claiming.md" },
			{ key: "limits", file: "docs/es/reference/limits.md" },
			{ key: "rate-limits", file: "docs/es/reference/rate-limits.md" }
		]
	},
	{
		name: "handbook",
		locale: "en",
		origin: "handbook fixtures (test/fixtures)",
		pages: [
			{ key: "facts", file: "test/fixtures/source/facts.txt" },
			{ key: "guide", file: "test/fixtures/guide.md" },
			{ key: "notes", file: "test/fixtures/notes.txt" }
		]
	},
	{
		name: "undici",
		locale: "en",
		origin: "node_modules/undici/docs",
		pages: [
			{ key: "retry", file: "node_modules/undici/docs/docs/api/RetryHandler.md" },
			{ key: "cookies", file: "node_modules/undici/docs/docs/api/Cookies.md" },
			{ key: "pool", file: "node_modules/undici/docs/docs/api/Pool.md" },
			{ key: "agent", file: "node_modules/undici/docs/docs/api/Agent.md" },
			{ key: "proxy", file: "node_modules/undici/docs/docs/best-practices/proxy.md" }
		]
	},
	{
		name: "readmes",
		locale: "en",
		origin: "package READMEs in node_modules",
		pages: [
			{ key: "debug", file: "node_modules/debug/README.md" },
			{ key: "robots", file: "node_modules/robots-parser/README.md" },
			{ key: "bytes", file: "node_modules/bytes/Readme.md" },
			{ key: "on-finished", file: "node_modules/on-finished/README.md" },
			{ key: "ms", file: "node_modules/ms/readme.md" }
		]
	},
	{
		name: "commonmark",
		locale: "en",
		origin: "node_modules/commonmark-spec (a specification: normative prose between examples)",
		pages: ["Thematic breaks", "ATX headings", "Fenced code blocks", "Block quotes", "Autolinks", "Hard line breaks"].map(section => ({
			key: section.toLowerCase().replace(/ /g, "-"),
			file: "node_modules/commonmark-spec/spec.txt",
			section
		}))
	}
];

type Row = [id: string, q: string, facts: string[] | null, pages?: string | null, conv?: string];

/** In-scope rows have facts and pages ("a b" = either page); out-of-scope rows have `null` facts. */
const ROWS: Record<string, Row[]> = {
	"docs-en-a": [
		["a01", "Do I need an API key to talk to a chatbot through its chat endpoint?", ["no key"], "chat"],
		["a02", "How many chat requests per minute may a single IP address make?", ["60"], "chat rate-limits"],
		["a03", "What happens when I send a conversation id that has already expired?", ["new conversation"], "chat"],
		["a04", "For how long is a conversation retained after its final message?", ["a day"], "chat"],
		["a05", "What is the longest question the messages endpoint accepts?", ["2000"], "chat"],
		["a06", "Which header makes the reply arrive as a stream of events?", ["text/event-stream"], "chat"],
		["a07", "Which fields does each citation carry?", ["source_id", "title"], "chat"],
		["a08", "How can my code tell that the bot found nothing relevant?", ["false"], "chat"],
		["a09", "Which status code comes back if the chatbot hasn't completed its first training?", ["409"], "chat"],
		["a10", "Which event tells me the streamed reply is finished?", ["done"], "chat"],
		["a11", "If the slug is unknown, do I still get an event stream?", ["ordinary JSON errors"], "chat"],
		["a12", "Can a web page on another domain call the chat endpoints?", ["Access-Control-Allow-Origin"], "chat"],
		["a13", "How many messages will a demo session answer?", ["20"], "chat widget limits", "a-c1"],
		["a14", "And an anonymous sandbox?", ["10"], "chat widget limits", "a-c1"],
		["a15", "Where in my HTML should the widget's script tag go?", ["</body>"], "widget"],
		["a16", "Which attribute tells the widget which bot to show?", ["data-chatbot"], "widget"],
		["a17", "Will the widget script slow down my page?", ["asynchronously|never blocks"], "widget"],
		["a18", "Which usage events does the widget report to the owner?", ["widget_opened", "message_sent"], "widget"],
		["a19", "How many beacon calls per minute are allowed from one address?", ["300"], "widget rate-limits"],
		["a20", "What does the beacon endpoint reply when it succeeds?", ["204"], "widget"],
		["a21", "Could text from a source inject a script into my site through the widget?", ["shown as text"], "widget"],
		["a22", "What user agent string does the fetcher identify itself with?", ["ChatbotBuilderBot/1.0"], "crawler"],
		["a23", "How do I keep the bot out of my entire website?", ["Disallow: /"], "crawler"],
		["a24", "For how long is a site's robots.txt kept in cache?", ["an hour"], "crawler"],
		["a25", "At most how many redirects does the fetcher follow?", ["5"], "crawler limits"],
		["a26", "What's the time allowed to download a single page?", ["15 seconds"], "crawler limits"],
		["a27", "Is text that JavaScript adds to a page picked up?", ["headless browser"], "crawler"],
		["a28", "What does the crawler do when robots.txt answers with a server error?", ["proceeds"], "crawler"],
		["a29", "Does a crawl wander off to links on other websites?", ["never follows links"], "crawler"],
		["a30", "Which kinds of responses can the crawler use?", ["HTML", "XHTML", "plain text"], "crawler"],
		["a31", "Is the cloud metadata address ever fetched?", ["always refused"], "crawler"],
		["a32", "How long does a demo session stay alive?", ["72 hours"], "limits"],
		["a33", "What is the biggest file I can upload?", ["10,000,000"], "limits"],
		["a34", "How many chatbots can a Pro account own?", ["Pro", "10"], "limits"],
		["a35", "How many messages per month does each Business chatbot get?", ["40,000"], "limits"],
		["a36", "Which plan does a brand-new account start on?", ["Free"], "limits"],
		["a37", "What happens to an expired demo session's chatbot and files?", ["deleted"], "limits"],
		["a38", "How many demo sessions may be live at the same time across the whole service?", ["10,000"], "limits"],
		["a39", "How many create_chatbot calls are allowed every ten minutes?", ["5"], "rate-limits"],
		["a40", "What does the RateLimit-Reset value express?", ["seconds until"], "rate-limits"],
		["a41", "After being refused with 429, how long should a client wait?", ["Retry-After"], "rate-limits"],
		["a42", "Is the health check subject to a request budget?", ["not rate limited"], "rate-limits"],
		["a43", "Is X-Forwarded-For trusted out of the box?", ["never trusted"], "rate-limits"],
		["a44", "What's the request budget of the demo API?", ["30"], "rate-limits", "a-c2"],
		["a45", "and over what window is it counted?", ["60 seconds"], "rate-limits", "a-c2"],
		["a46", "Are budgets tracked per API key or per address?", ["IP address"], "rate-limits chat"],
		["a47", "Can I delete a stored conversation through the chat API?", null],
		["a48", "Does the chat API offer a WebSocket connection?", null],
		["a49", "How do I attach an image to a chat message?", null],
		// Out of scope when written; the widget guide now says the owner sets the colour on the Deploy page.
		["a50", "Can I change the colour of the chat bubble?", ["Deploy page"], "widget"],
		["a51", "Does the widget work inside a React Native app?", null],
		["a52", "Does the crawler honour the Crawl-delay directive?", null],
		["a53", "How often does the crawler revisit pages to pick up changes?", null],
		["a54", "How much does the Pro plan cost per month?", null],
		["a55", "Can I pay for a plan with PayPal?", null],
		["a56", "Is there a discount for students or nonprofits?", null],
		["a57", "Can I buy a higher request budget for my IP?", null],
		["a58", "Which languages besides English and Spanish will the widget support next year?", null],
		["a59", "Can the widget open by itself when the page loads?", null],
		["a60", "Can I move the chat bubble to the left side of the page?", ["corner"], "widget"],
		["a61", "From which IP addresses does the crawler connect, so I can allowlist it in my firewall?", null],
		["a62", "How long can a streamed answer stay open before the server cuts it off?", null],
		["a63", "When fetching a page times out, how many times does the crawler retry it?", null],
		["a64", "Can I buy extra messages for one chatbot without moving to a bigger plan?", null],
		["a65", "Which parts of a page does the crawler throw away as clutter?", ["navigation", "sidebars"], "crawler"],
		["a66", "How many pages can one crawler process have open in its browser simultaneously?", ["2"], "crawler"],
		["a67", "Which error do I get if too many demos are already running from my network?", ["network_cap"], "limits"]
	],
	"docs-en-b": [
		["b01", "If nobody claims my sandbox bot, when does it get removed?", ["8 days"], "sandbox"],
		["b02", "How many messages can an anonymous sandbox answer over its whole life?", ["10"], "sandbox"],
		["b03", "Should the agent visit the claim URL on its own?", ["do not open"], "sandbox"],
		["b04", "What does a person do to keep a sandbox chatbot?", ["logs in", "button"], "sandbox"],
		["b05", "Can a claim link be used a second time?", ["works once"], "sandbox"],
		["b06", "What changes once a chatbot has been claimed?", ["no longer deleted", "plan limits"], "sandbox"],
		["b07", "What does a tool call return when a sandbox limit is hit?", ["isError: true"], "sandbox"],
		["b08", "Do pages added afterwards count against the five-page budget?", ["add_knowledge_url"], "sandbox"],
		["b09", "Are scanned PDFs run through text recognition?", ["no OCR"], "files"],
		["b10", "How long may a parser spend on one file?", ["30 seconds"], "files"],
		["b11", "What happens to the YAML header at the top of a Markdown upload?", ["dropped"], "files"],
		["b12", "Which document formats can a chatbot learn from?", ["PDF", "Markdown"], "files"],
		["b13", "What does it mean when a file is pending?", ["waiting for extraction"], "files"],
		["b14", "How often does the maintenance sweep run?", ["15 minutes"], "files"],
		["b15", "Why would an upload fail as unreadable?", ["damaged|encrypted"], "files"],
		["b16", "What should I do when extracting a file takes too long?", ["Split the document"], "files"],
		["b17", "How is an upload's declared type verified before parsing?", ["first bytes"], "files"],
		["b18", "What does the failed status mean for a file?", ["Nothing was counted"], "files", "b-c1"],
		["b19", "and where do I find the reason?", ["failure"], "files", "b-c1"],
		["b20", "What version is the current API contract?", ["1.0.0"], "versioning"],
		["b21", "How much notice is given before an old path prefix stops working?", ["6 months"], "versioning"],
		["b22", "Which header gives the date after which a deprecated surface goes away?", ["Sunset"], "versioning"],
		["b23", "Is any endpoint scheduled to be removed right now?", ["nothing is scheduled"], "versioning"],
		["b24", "Which MCP protocol versions are supported?", ["2025-06-18", "2025-03-26", "2024-11-05"], "versioning"],
		["b25", "Do new optional response fields bring a new version?", ["without a new version"], "versioning"],
		["b26", "What do API keys begin with?", ["cbk_live_"], "auth"],
		["b27", "Can I look at my API key again after creating it?", ["shown once"], "auth"],
		["b28", "How are keys kept on the server?", ["SHA-256"], "auth"],
		["b29", "What does the tool server answer to a revoked key?", ["401"], "auth"],
		["b30", "Where is a bearer token accepted?", ["/mcp"], "auth"],
		["b31", "How many random bits make up a session id?", ["256"], "auth"],
		["b32", "Does the chat API need any credential?", ["public"], "auth"],
		// Written when no channel existed; the guide now describes Telegram and Crisp.
		["b33", "Can I hook up a messaging channel today?", ["Telegram|Crisp"], "channels"],
		["b34", "Am I supposed to call the /webhooks/ paths myself?", ["not endpoints for you to call"], "channels"],
		["b35", "Can a claimed chatbot be moved to a different account later?", null],
		["b36", "How do I give a claimed chatbot back to the sandbox?", null],
		["b37", "Can I upload Excel spreadsheets?", null],
		["b38", "Are pictures inside a Word file described in the text?", null],
		["b39", "What is the most pages a PDF may have?", null],
		["b40", "Is there a changelog listing earlier API versions?", null],
		["b41", "When will version 2 of the API be released?", null],
		["b42", "Can I log in with my Google account?", null],
		["b43", "After how many days do API keys expire?", null],
		["b44", "Will WhatsApp be one of the messaging channels?", null],
		["b45", "What's the longest reply Crisp gets in one message before the bot splits it?", null],
		["b46", "How much memory may the worker that extracts an uploaded file use?", null],
		["b47", "How many API keys can one account have at the same time?", null],
		["b48", "How long does the login session cookie last before I have to sign in again?", null],
		["b49", "After a human agent writes in a Crisp chat, how long does the bot stay silent there?", ["30 minutes|1800"], "channels"],
		["b50", "Which Crisp events should the hook be subscribed to?", ["message:send", "message:received", "session:removed"], "channels"],
		["b51", "How many times will the service try to deliver a reply to Telegram when Telegram keeps answering with server errors?", ["5"], "channels", "b-c2"],
		["b52", "and if Telegram says how long to wait, what's the longest pause it will honour?", ["2 minutes"], "channels", "b-c2"]
	],
	"docs-es": [
		["e01", "¿Cuánto tiempo dura una sesión de demostración?", ["72 horas"], "quickstart limits"],
		["e02", "¿Hace falta una cuenta para usar la API de demostración?", ["No necesita"], "quickstart"],
		["e03", "¿Qué pasos sigue la guía rápida?", ["crear una sesión", "entrenar"], "quickstart"],
		["e04", "¿Cuántos caracteres de entrenamiento comparten todas las fuentes?", ["50.000"], "quickstart limits"],
		["e05", "¿Puedo recuperar el session_id si lo pierdo?", ["no se puede recuperar"], "quickstart"],
		["e06", "¿En cuánto tiempo tengo que enviar los bytes del archivo?", ["10 minutos"], "quickstart limits"],
		["e07", "¿Por qué estados pasa un archivo después de adjuntarlo?", ["pending", "processing", "ready"], "quickstart"],
		["e08", "¿Qué devuelve el entrenamiento si ninguna fuente tiene texto legible?", ["422"], "quickstart"],
		["e09", "¿Cuántos mensajes contesta una demostración en total?", ["20"], "quickstart limits"],
		["e10", "¿Qué indica needs_retrain?", ["hayan cambiado"], "quickstart"],
		["e11", "¿Qué código de error sale cuando la sesión tiene más de tres días?", ["expired"], "quickstart limits"],
		["e12", "¿El servidor MCP guarda estado entre una petición y otra?", ["no guarda|no recuerda"], "mcp"],
		["e13", "¿Qué responde el servidor a un GET en /mcp?", ["405"], "mcp"],
		["e14", "¿Qué versión se supone si falta la cabecera de versión del protocolo?", ["2024-11-05"], "mcp"],
		["e15", "¿Cómo contesta el servidor a una notificación sin id?", ["202"], "mcp"],
		["e16", "¿Qué ocurre si la cabecera Origin no es un origen permitido?", ["403"], "mcp"],
		["e17", "¿Cuántas veces puedo llamar a create_chatbot cada diez minutos?", ["5"], "mcp rate-limits"],
		["e18", "¿Qué significa el código -32601?", ["Método no encontrado"], "mcp"],
		["e19", "¿Qué hace el servidor con Mcp-Session-Id?", ["ignora"], "mcp"],
		["e20", "¿Qué devuelve tools/call cuando una herramienta falla por un motivo de negocio?", ["isError"], "mcp"],
		["e21", "¿Qué métodos ofrece el servidor de herramientas?", ["initialize", "tools/list", "tools/call"], "mcp"],
		["e22", "¿Cuánto se conserva un chatbot de prueba que nadie reclama?", ["8 días"], "sandbox limits"],
		["e23", "¿Debe el agente abrir el enlace de reclamación?", ["no lo abras"], "sandbox"],
		["e24", "¿Cuántas veces sirve un enlace de reclamación?", ["una sola vez"], "sandbox"],
		["e25", "¿Qué pasa con los límites después de reclamar el chatbot?", ["límites del plan"], "sandbox"],
		["e26", "¿Qué deja de funcionar cuando se borra un chatbot de prueba?", ["dejan de responder"], "sandbox"],
		["e27", "¿Cuántas URL admite una sesión de demostración?", ["3"], "limits"],
		["e28", "¿Cuál es el tamaño máximo de un archivo subido?", ["10.000.000"], "limits"],
		["e29", "¿Con qué plan empiezan las cuentas nuevas?", ["Free"], "limits"],
		["e30", "¿Cuántos chatbots permite el plan Business?", ["Business", "50"], "limits"],
		["e31", "¿Cuántos mensajes al mes tiene cada chatbot del plan Pro?", ["5.000"], "limits"],
		["e32", "¿Qué pasa si ya hay 10.000 sesiones activas y creo otra?", ["503"], "limits"],
		["e33", "¿Cuánto tiempo tiene el rastreador para descargar una página?", ["15 segundos"], "limits"],
		// Written before billing existed; the limits page now says plans are bought on the billing page.
		["e34", "¿Ya se puede contratar un plan de pago por internet?", ["página de facturación"], "limits"],
		["e35", "¿Cuántas peticiones por minuto acepta la API de demostración?", ["30"], "rate-limits quickstart"],
		["e36", "¿Qué cabecera dice cuántas peticiones me quedan?", ["RateLimit-Remaining"], "rate-limits"],
		["e37", "¿Tienen límite de uso las páginas de documentación?", ["no tienen"], "rate-limits"],
		["e38", "¿Los límites se cuentan por clave o por IP?", ["dirección IP"], "rate-limits"],
		["e39", "¿Se acepta X-Forwarded-For por defecto?", ["nunca se"], "rate-limits"],
		["e40", "¿Cuántas balizas del widget se permiten por minuto?", ["300"], "rate-limits"],
		["e41", "¿Cuántos mensajes responde el modo de prueba anónimo?", ["10"], "sandbox limits", "e-c1"],
		["e42", "¿y cuántas páginas rastrea?", ["5"], "sandbox limits", "e-c1"],
		["e43", "¿Cuál es el límite de la política accounts?", ["20"], "rate-limits", "e-c2"],
		["e44", "¿y en qué ventana de tiempo?", ["600 segundos"], "rate-limits", "e-c2"],
		["e45", "¿Cuánto cuesta el plan Pro al mes?", null],
		["e46", "¿Puedo pagar con tarjeta de débito?", null],
		["e47", "¿El servidor MCP admite WebSockets?", null],
		["e48", "¿Para qué lenguajes de programación hay un SDK oficial?", null],
		["e49", "¿Cómo cambio la contraseña de mi cuenta?", null],
		["e50", "¿Puedo exportar las conversaciones a CSV?", null],
		["e51", "¿Cuántos usuarios puede tener una cuenta Business?", null],
		["e52", "¿Hay un límite de tokens para el modelo de lenguaje?", null],
		["e53", "¿Se puede usar el chatbot en WhatsApp?", null],
		["e54", "¿En qué país están alojados los servidores?", null],
		["e55", "¿Puedo subir vídeos como fuente?", null],
		["e56", "¿Qué precio tiene el plan Business?", null],
		["e57", "¿Puedo pagar aparte para ampliar las páginas del plan Free?", null],
		["e58", "¿Qué versión de Node.js necesita el servidor de herramientas?", null],
		["e59", "¿El servidor MCP admite autenticación con OAuth?", null],
		["e60", "¿Cuánto tiempo como máximo puede tardar una llamada a tools/call?", null],
		["e61", "¿Puedo elegir qué modelo de lenguaje usa la sesión de demostración?", null],
		["e62", "¿Cuántos chatbots de prueba puede reclamar una misma persona?", null],
		["e63", "¿Hay límites de peticiones más altos para las cuentas de pago?", null],
		["e64", "¿Qué código devuelve una petición GET a /mcp?", ["405"], "mcp"],
		["e65", "¿Qué quiere decir el error -32700?", ["Error de análisis"], "mcp"],
		["e66", "¿Cuál es el tamaño máximo de un archivo subido en la demo?", ["10.000.000 bytes"], "limits"],
		["e67", "¿Qué responde el método ping?", ["resultado vacío"], "mcp"],
		["e68", "¿Cuántas redirecciones sigue el rastreador como mucho?", ["Redirecciones seguidas", "5"], "limits"],
		["e69", "¿Con qué prefijo empiezan las claves de API?", ["cbk_live_"], "mcp"],
		["e70", "¿Cuántos mensajes al mes incluye el plan Enterprise?", null],
		["e71", "¿Cuánto suele tardar el entrenamiento de una demo con 50.000 caracteres?", null],
		["e72", "¿Qué variable de entorno usa el operador para permitir otros orígenes en /mcp?", null],
		["e73", "¿Cuántas claves de API puede tener una misma cuenta?", null],
		["e74", "¿Cuántas veces como máximo puedo reentrenar una misma demo?", null],
		["e75", "¿Hay descuento si pago el plan Business por un año entero?", null],
		["e76", "¿Qué formatos de documento puedo subir a una demo?", ["PDF", "DOCX", "Markdown"], "limits"],
		["e77", "Si mi cliente acepta gzip, ¿cuánto pesa el listado de herramientas?", ["2,4 KB"], "mcp"],
		["e78", "Si no uso Redis, ¿hasta cuántos clientes distintos lleva la cuenta de un mismo límite simultáneamente?", ["100.000"], "rate-limits"],
		["e79", "¿Cómo compruebo que el servidor MCP está vivo sin llamar a ninguna herramienta?", ["ping"], "mcp"],
		["e80", "¿Qué herramienta de más tengo si mando mi clave al servidor MCP?", ["list_chatbots"], "mcp", "e-c3"],
		["e81", "¿Y qué me contesta si esa clave ya la he revocado?", ["401"], "mcp", "e-c3"]
	],
	handbook: [
		["h01", "For how many months is the Zephyr-9 covered?", ["37 months"], "facts guide notes"],
		["h02", "How often should the kettle be descaled?", ["11 weeks"], "facts guide"],
		["h03", "Is vinegar OK for descaling?", ["never with vinegar"], "facts"],
		["h04", "Where is the help desk located?", ["Tromsø"], "facts"],
		["h05", "What hours is support open?", ["08:15", "16:45"], "facts"],
		["h06", "How many Aurora kettles were produced?", ["4,812"], "facts"],
		["h07", "What does a spare lid for the Zephyr-9 cost?", ["14 euros"], "notes"],
		["h08", "What should I use to remove limescale?", ["citric acid"], "facts guide"],
		["h09", "When does the support desk answer?", ["weekdays"], "facts", "h-c1"],
		["h10", "and in which city is it?", ["Tromsø"], "facts", "h-c1"],
		["h11", "How much does a new Zephyr-9 kettle cost?", null],
		["h12", "Is the Aurora kettle dishwasher safe?", null],
		["h13", "Does the warranty cover accidental damage?", null],
		["h14", "What is the wattage of the Zephyr-9?", null],
		["h15", "Who designed the Aurora kettle?", null],
		["h16", "How many litres does the Zephyr-9 hold?", null],
		["h17", "How long is the warranty on the Aurora kettle?", null],
		["h18", "What does a replacement lid for the Aurora cost?", null],
		["h19", "How many Zephyr-9 kettles have been made?", null],
		["h20", "What phone number do I call to reach the Tromsø help desk?", null],
		["h21", "How long should the citric acid stay in the kettle when descaling?", null],
		["h22", "Is the help desk open on public holidays?", null],
		["h23", "What warranty comes with the Zephyr-9?", ["37 months"], "facts guide notes", "h-c2"],
		["h24", "and when does the clock start on it?", ["date of purchase"], "facts", "h-c2"]
	],
	undici: [
		["u01", "By default, how many times does the retry handler try again?", ["5"], "retry"],
		["u02", "What's the longest wait between retries by default?", ["30000|30 seconds"], "retry"],
		["u03", "What is the shortest delay before a retry?", ["500"], "retry"],
		["u04", "Which HTTP status codes get retried out of the box?", ["429", "503"], "retry"],
		["u05", "Which request methods are retried by default?", ["GET", "PUT"], "retry"],
		["u06", "Will it wait for the server's Retry-After header?", ["Retry-After"], "retry"],
		["u07", "Why isn't a request with a streaming body retried?", ["stateful"], "retry"],
		["u08", "What error do I get when a stateful body cannot be retried?", ["UND_ERR_REQ_RETRY"], "retry"],
		["u09", "By what factor does the delay grow with each attempt?", ["2"], "retry"],
		["u10", "How does deleteCookie make a browser drop a cookie?", ["unix epoch"], "cookies"],
		["u11", "Does parseCookie decode percent-encoded values?", ["not decoded"], "cookies"],
		["u12", "Which sameSite values are recognised?", ["Strict", "Lax", "None"], "cookies"],
		["u13", "Which helper reads every Set-Cookie header?", ["getSetCookies"], "cookies"],
		["u14", "Which function reads the Cookie request header?", ["getCookies"], "cookies"],
		["u15", "What is a Pool made of?", ["Client instances"], "pool"],
		["u16", "What happens when a pool's connections option is null?", ["unlimited"], "pool"],
		["u17", "What does clientTtl control?", ["removed from the Pool"], "pool"],
		["u18", "Are requests sent in the order I make them?", ["not guaranteed"], "pool agent"],
		["u19", "What should the URL passed to a new Pool contain?", ["hostname"], "pool"],
		["u20", "How many origins can an Agent reach at once by default?", ["Infinity"], "agent"],
		["u21", "What error is thrown when the origin limit is reached?", ["MaxOriginsReachedError"], "agent"],
		["u22", "What does Agent.stats() give back?", ["by origin"], "agent"],
		["u23", "How do I pass credentials to a proxy that needs basic auth?", ["proxy-authorization"], "proxy"],
		["u24", "Where does the upstream address go when I send a request through a proxy with Client?", ["path"], "proxy"],
		["u25", "What are the ways to connect through a proxy?", ["ProxyAgent", "constructor"], "proxy"],
		["u26", "What is the default for maxRetries?", ["5"], "retry", "u-c1"],
		["u27", "and what about the minimum timeout?", ["500"], "retry", "u-c1"],
		["u28", "Does undici speak HTTP/3?", null],
		["u29", "How do I keep cookies in a jar that persists to disk?", null],
		["u30", "What is the default keep-alive timeout of a Client?", null],
		["u31", "Does the SOCKS5 proxy support username and password?", null],
		["u32", "How do I intercept and mock a request in my tests?", null],
		["u33", "Can a Pool spread requests over several upstream hosts with weights?", null],
		["u34", "Does a Pool open HTTP/2 connections?", null],
		["u35", "Does the retry handler add random jitter to its backoff delays?", null],
		["u36", "Is clientTtl given in seconds or in milliseconds?", null],
		["u37", "Does ProxyAgent pick up the HTTPS_PROXY environment variable on its own?", null],
		["u38", "Does setCookie percent-encode a value that contains spaces?", null],
		["u39", "Which low-level error codes get retried without any configuration?", ["ECONNRESET", "ENOTFOUND"], "retry"],
		["u40", "How do I put a cookie on a Headers object so the browser receives it?", ["setCookie"], "cookies"],
		["u41", "Which retry option keeps the handler from throwing once the final attempt fails?", ["throwOnError"], "retry", "u-c2"],
		["u42", "and why would I want to turn it off?", ["body on errors|custom error handler"], "retry", "u-c2"]
	],
	commonmark: [
		["k01", "What characters can I repeat to make a horizontal rule?", ["-, _, or *"], "thematic-breaks"],
		["k02", "How many dashes or asterisks does a thematic break need at minimum?", ["three or more"], "thematic-breaks"],
		["k03", "Is a row of asterisks indented by four spaces still a thematic break?", ["too many"], "thematic-breaks"],
		["k04", "Can I mix stars and dashes in one rule line?", ["be the same"], "thematic-breaks"],
		["k05", "When a line of dashes could underline a setext title or be a break, which reading wins?", ["setext heading", "takes precedence"], "thematic-breaks"],
		["k06", "Do I need empty lines around a thematic break?", ["do not need blank lines"], "thematic-breaks"],
		["k07", "How do I put a thematic break inside a list item?", ["different bullet"], "thematic-breaks"],
		["k08", "What is the deepest heading level the hash syntax allows?", ["1--6|More than six"], "atx-headings"],
		["k09", "Does a heading need whitespace after its hash marks?", ["At least one space or tab is required"], "atx-headings"],
		["k10", "How is the level of an ATX heading decided?", ["equal to the number of # characters"], "atx-headings"],
		["k11", "Do the trailing hashes have to match the leading ones in count?", ["need not be the same length"], "atx-headings"],
		["k12", "Can an ATX heading have nothing in it?", ["can be empty"], "atx-headings"],
		["k13", "What happens to blanks around the heading's text?", ["stripped of leading and trailing|are ignored"], "atx-headings"],
		["k14", "Do I have to close a heading with hashes?", ["optional"], "atx-headings"],
		["k15", "Which characters can a code fence be made of?", ["backtick", "tildes"], "fenced-code-blocks"],
		["k16", "What is the smallest run of backticks that opens a fenced block?", ["at least three"], "fenced-code-blocks"],
		["k17", "Can one fence combine backticks and tildes?", ["cannot be mixed"], "fenced-code-blocks"],
		["k18", "What can follow the backticks on the line that opens a code block?", ["info string"], "fenced-code-blocks", "k-c1"],
		["k19", "and what is its first word normally used for?", ["language"], "fenced-code-blocks", "k-c1"],
		["k20", "How long must the fence that ends a code block be?", ["at least as long as the opening fence|at least as many backticks or tildes"], "fenced-code-blocks"],
		["k21", "What becomes of a code block that is never closed?", ["end of the document|end of the containing block"], "fenced-code-blocks"],
		["k22", "How is the language of a fenced block shown in the HTML?", ["language-"], "fenced-code-blocks"],
		["k23", "May the text after a backtick fence contain a backtick?", ["may not contain any backtick|cannot contain backticks"], "fenced-code-blocks"],
		["k24", "Is Markdown inside a code fence interpreted?", ["literal text"], "fenced-code-blocks"],
		["k25", "Can the fence that ends a block carry an info string?", ["cannot have"], "fenced-code-blocks"],
		["k26", "Which character starts a quoted line?", ["the character >"], "block-quotes"],
		["k27", "What does the laziness rule let a writer leave out?", ["paragraph continuation text"], "block-quotes"],
		["k28", "What keeps two quotes in a row from becoming a single one?", ["blank line"], "block-quotes"],
		["k29", "How many spaces after > does an indented code block inside a quote need?", ["five spaces"], "block-quotes"],
		["k30", "How far may the > be indented?", ["up to three spaces"], "block-quotes"],
		["k31", "Is the space after the > required?", ["can be omitted"], "block-quotes"],
		["k32", "How do I write a link whose text is the address itself?", ["inside < and >"], "autolinks"],
		["k33", "How long may the scheme of a URI in an autolink be?", ["2--32 characters"], "autolinks"],
		["k34", "What has to be done to a space inside an autolink's address?", ["percent-encoded"], "autolinks"],
		["k35", "Where does an email autolink point?", ["mailto:"], "autolinks"],
		["k36", "Can backslash escapes be used in an autolink?", ["do not work"], "autolinks"],
		["k37", "How do I force a new line without starting another paragraph?", ["two or more spaces"], "hard-line-breaks"],
		["k38", "What else can end a line to break it, besides trailing spaces?", ["backslash"], "hard-line-breaks"],
		["k39", "Does a hard line break work as the last thing in a paragraph?", ["Neither syntax for hard line breaks works"], "hard-line-breaks"],
		["k40", "Which HTML tag does a hard line break turn into?", ["<br />"], "hard-line-breaks"],
		["k41", "How deeply may block quotes be nested?", null],
		["k42", "How do I add a caption to a fenced code block?", null],
		["k43", "How do I give an ATX heading a custom id for anchors?", null],
		["k44", "What does a setext underline made of equals signs produce?", null],
		["k45", "How many levels do setext headings have?", null],
		["k46", "Can a fenced code block show line numbers?", null],
		["k47", "Which language does a fenced code block get when no info string is given?", null],
		["k48", "How wide is a thematic break drawn?", null],
		["k49", "Who invented the ATX heading format?", null],
		["k50", "How many block quotes may a document hold at most?", null],
		["k51", "Does a soft line break become a space or a newline?", null],
		["k52", "How do I escape a > at the start of a line so it is not a quote?", null]
	],
	readmes: [
		["r01", "How do I list several namespaces to enable?", ["comma"], "debug"],
		["r02", "How do I leave out one namespace while using a wildcard?", ["prefixing"], "debug"],
		["r03", "Where does debug write its output unless told otherwise?", ["stderr"], "debug", "r-c1"],
		["r04", "and how can I change that?", ["log"], "debug", "r-c1"],
		["r05", "How do I set the variable in the Windows command prompt?", ["set"], "debug"],
		["r06", "When are colours used in Node.js?", ["TTY"], "debug"],
		["r07", "What should I install alongside to get more colours?", ["supports-color"], "debug"],
		["r08", "What does the %j formatter print?", ["JSON"], "debug"],
		["r09", "What timestamp format is used when stdout is not a terminal?", ["toISOString"], "debug"],
		["r10", "Which variable hides the date from the output?", ["DEBUG_HIDE_DATE"], "debug"],
		["r11", "Where is the enabled state kept in a browser?", ["localStorage"], "debug"],
		["r12", "Why don't I see debug messages in Chrome's console?", ["Verbose"], "debug"],
		["r13", "How do I keep colours in a child process whose stderr is piped?", ["DEBUG_COLORS"], "debug"],
		["r14", "What does getCrawlDelay return?", ["seconds"], "robots"],
		["r15", "Which robots.txt directives does the parser understand?", ["Crawl-delay", "Sitemap"], "robots"],
		["r16", "What does isAllowed give for a URL that doesn't belong to the robots.txt?", ["undefined"], "robots"],
		["r17", "Do the line numbers start from zero?", ["start at 1"], "robots"],
		["r18", "What bug did version 3.0.1 fix?", ["443"], "robots"],
		["r19", "What does getPreferredHost return when no host directive exists?", ["null"], "robots"],
		["r20", "Is a kilobyte 1000 or 1024 bytes for this parser?", ["1024"], "bytes"],
		["r21", "How many decimal places does format use by default?", ["2"], "bytes"],
		["r22", "What does bytes return when it fails?", ["null"], "bytes"],
		["r23", "How many times is the on-finished listener called?", ["only once"], "on-finished"],
		["r24", "Which arguments does the finish listener get?", ["err"], "on-finished"],
		["r25", "What does ms give back for the string '100'?", ["100"], "ms"],
		["r26", "How do I write debug output to a rotating log file?", null],
		["r27", "Does robots-parser download robots.txt over HTTP by itself?", null],
		["r28", "Can bytes format values as bits per second?", null],
		["r29", "Can ms parse ISO 8601 durations?", null],
		["r30", "Which log levels such as warn and error does debug offer?", null],
		["r31", "Does on-finished work with HTTP/2 streams?", null],
		["r32", "How do I make robots-parser respect a site's noindex meta tag?", null],
		["r33", "Can debug send its output to syslog?", null],
		["r34", "What does ms return for '1 week'?", null],
		["r35", "What depth does debug use by default when it inspects objects?", null],
		["r36", "Which Node.js versions does on-finished support?", null],
		["r37", "Which size units does bytes.parse recognise?", ["terabytes", "petabytes"], "bytes"],
		["r38", "How can ms spell a duration out in words, e.g. 'minutes' rather than 'm'?", ["long: true"], "ms"],
		["r39", "How do I put a space between the number and the unit when formatting with bytes?", ["unitSeparator"], "bytes"],
		["r40", "When is a request that has an Upgrade header considered done by on-finished?", ["immediately"], "on-finished"]
	]
};

export const QUESTIONS: DevQuestion[] = Object.entries(ROWS).flatMap(([corpus, rows]) =>
	rows.map(([id, q, facts, pages, conv]) => ({
		id,
		corpus,
		q,
		facts: facts ?? [],
		pages: pages ? pages.split(" ") : [],
		oos: facts === null,
		...(conv ? { conv } : {})
	}))
);

/** FNV-1a of a string: a stable split that does not depend on the order questions are written in. */
function hash(text: string): number {
	let h = 0x811c9dc5;
	for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193);
	return h >>> 0;
}

/**
 * About 30% of the questions are held out: never looked at while tuning. A conversation is held out
 * or not as a whole.
 */
export function isHeldOut(question: Pick<DevQuestion, "id" | "conv">): boolean {
	return hash(question.conv ?? question.id) % 10 < 3;
}
