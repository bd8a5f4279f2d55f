/**
 * A tiny content model for the hand-designed pages (home, developers). Each page's copy is written
 * once as blocks and rendered twice: to HTML for browsers and to Markdown for `Accept: text/markdown`,
 * so the two representations always say the same thing. Inline text uses Markdown (`code`, links).
 */
import { escapeHtml, renderInlineMarkdown, renderMarkdown } from "./render-markdown";
import { sandboxFormHtml } from "./sandbox-form";

export interface Action {
	label: string;
	href: string;
	primary?: boolean;
}

export type Block =
	| { kind: "hero"; title: string; lead: string; actions: Action[] }
	| { kind: "heading"; text: string }
	| { kind: "paragraph"; text: string }
	| { kind: "list"; items: string[] }
	| { kind: "cards"; items: Array<{ title: string; text: string; link?: Action }> }
	| { kind: "code"; lang: string; code: string }
	| { kind: "table"; head: string[]; rows: string[][] }
	| { kind: "actions"; actions: Action[] }
	| { kind: "sandbox-form"; form: SandboxForm };

/** The home page's "paste your website URL" form (lib/site/sandbox-form.ts renders it). */
export interface SandboxForm {
	/** Where the form goes without a script: a page that asks once more, with a CSRF-protected button. */
	action: string;
	/** Where the script posts the JSON request (`POST /sandbox`). */
	endpoint: string;
	language: "en" | "es";
	heading: string;
	label: string;
	placeholder: string;
	button: string;
	note: string;
	working: string;
}

const cell = (text: string) => text.replace(/\|/g, "\\|").replace(/\n/g, " ");

function blockMarkdown(block: Block): string {
	switch (block.kind) {
		case "hero":
			return [`# ${block.title}`, `> ${block.lead}`, block.actions.map(a => `- [${a.label}](${a.href})`).join("\n")].join("\n\n");
		case "heading":
			return `## ${block.text}`;
		case "paragraph":
			return block.text;
		case "list":
			return block.items.map(item => `- ${item}`).join("\n");
		case "cards":
			return block.items
				.map(item => `### ${item.title}\n\n${item.text}${item.link ? `\n\n[${item.link.label}](${item.link.href})` : ""}`)
				.join("\n\n");
		case "code":
			return `\`\`\`${block.lang}\n${block.code.replace(/\n$/, "")}\n\`\`\``;
		case "table":
			return [
				`| ${block.head.map(cell).join(" | ")} |`,
				`|${block.head.map(() => "---").join("|")}|`,
				...block.rows.map(row => `| ${row.map(cell).join(" | ")} |`)
			].join("\n");
		case "actions":
			return block.actions.map(a => `- [${a.label}](${a.href})`).join("\n");
		case "sandbox-form":
			// Markdown has no forms: it names the call the form makes.
			return `## ${block.form.heading}\n\n${block.form.note}\n\n\`POST ${block.form.endpoint}\` \`{"website_url": "https://…", "language": "${block.form.language}"}\``;
	}
}

export function blocksToMarkdown(blocks: Block[]): string {
	return `${blocks.map(blockMarkdown).join("\n\n")}\n`;
}

function actionsHtml(actions: Action[]): string {
	const links = actions.map(
		a => `<a class="button ${a.primary ? "primary" : "secondary"}" href="${escapeHtml(a.href)}">${escapeHtml(a.label)}</a>`
	);
	return `<p class="actions">${links.join("\n")}</p>`;
}

function blockHtml(block: Block): string {
	switch (block.kind) {
		case "hero":
			return `<section class="hero"><h1>${renderInlineMarkdown(block.title)}</h1>\n<p class="lead">${renderInlineMarkdown(block.lead)}</p>\n${actionsHtml(block.actions)}</section>`;
		case "cards":
			return `<div class="cards">${block.items
				.map(
					item =>
						`<div class="card"><h3>${renderInlineMarkdown(item.title)}</h3><p>${renderInlineMarkdown(item.text)}</p>${
							item.link ? `<p><a href="${escapeHtml(item.link.href)}">${escapeHtml(item.link.label)} →</a></p>` : ""
						}</div>`
				)
				.join("\n")}</div>`;
		case "actions":
			return actionsHtml(block.actions);
		case "sandbox-form":
			return sandboxFormHtml(block.form);
		default:
			// Headings, paragraphs, lists, code and tables render exactly as the Markdown says.
			return renderMarkdown(blockMarkdown(block)).html;
	}
}

export function blocksToHtml(blocks: Block[]): string {
	return blocks.map(blockHtml).join("\n");
}
