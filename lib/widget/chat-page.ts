/**
 * The chat page behind a chatbot's chat link (`/c/{slug}`): a phone-friendly shell in the
 * chatbot's language that loads the widget script in page mode, which draws the chat itself. The
 * only server-provided text in the HTML is the chatbot's name, escaped.
 */
import { escapeHtml } from "../site/render-markdown";
import type { Locale } from "../text/tokenize";

const NOSCRIPT: Record<Locale, string> = {
	en: "This chat needs JavaScript. Turn it on and reload the page.",
	es: "Este chat necesita JavaScript. Actívalo y vuelve a cargar la página."
};

export function chatPageHtml(chatbot: { slug: string; name: string; locale: Locale }): string {
	const name = escapeHtml(chatbot.name);
	return `<!doctype html>
<html lang="${chatbot.locale}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1, viewport-fit=cover">
<meta name="robots" content="noindex">
<title>${name}</title>
<style>
html, body { margin: 0; height: 100%; background: #f3f4f6; }
body { font: 16px/1.5 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; color: #111827; }
#chat { height: 100vh; height: 100dvh; }
noscript p { margin: 2rem 1rem; text-align: center; }
</style>
</head>
<body>
<main id="chat" data-chatbot-root></main>
<noscript><p>${escapeHtml(NOSCRIPT[chatbot.locale])}</p></noscript>
<script src="/widget.js" data-chatbot="${escapeHtml(chatbot.slug)}" data-mode="page" defer></script>
</body>
</html>
`;
}
