/**
 * The widget settings an owner chooses on the Deploy page: how the chatbot presents itself in the
 * website widget and on its chat link. Stored on the chatbot (`widget`), sent to both by the chat
 * service's public info (GET /api/chat/{slug}), and read by assets/widget.js.
 *
 * Validation is here, once, as plain checks of bounded strings (no pattern that can backtrack): the
 * form's fields arrive as strings, and every refusal names its field in words a person can act on.
 */
import { appError } from "../errors";
import { LOCALES, type Locale } from "../locales";

export const WIDGET_POSITIONS = ["right", "left"] as const;
export type WidgetPosition = (typeof WIDGET_POSITIONS)[number];

export const MAX_DISPLAY_NAME = 80;
export const MAX_WELCOME_MESSAGE = 500;
export const MAX_SUGGESTED_QUESTIONS = 4;
export const MAX_SUGGESTED_QUESTION = 120;
export const DEFAULT_ACCENT_COLOR = "#2563eb";

export interface WidgetSettings {
	/** Shown in the widget's header and as the chat page's title; null: the chatbot's name. */
	display_name: string | null;
	/** The first message of every chat; null: the default greeting in `language`. */
	welcome_message: string | null;
	/** Buttons a visitor can press instead of typing, at most four. */
	suggested_questions: string[];
	/** `#rrggbb`: header, bubble, the visitor's messages and the send button. */
	accent_color: string;
	/** The corner of the page the bubble sits in. */
	position: WidgetPosition;
	/** The language of the widget's own words (buttons, notices) and of the default greeting. */
	language: Locale;
}

/** The settings of a chatbot that never changed them. */
export function defaultWidgetSettings(locale: Locale): WidgetSettings {
	return { display_name: null, welcome_message: null, suggested_questions: [], accent_color: DEFAULT_ACCENT_COLOR, position: "right", language: locale };
}

/** The settings in force for a chatbot: what it stored, or the defaults for its language. */
export function widgetSettingsOf(chatbot: { locale: Locale; widget?: WidgetSettings | null }): WidgetSettings {
	return chatbot.widget ?? defaultWidgetSettings(chatbot.locale);
}

/** The form as posted (every field a string; absent fields are left as they were). */
export interface WidgetSettingsInput {
	display_name?: string;
	welcome_message?: string;
	/** One question per line. */
	suggested_questions?: string;
	accent_color?: string;
	position?: string;
	language?: string;
}

const HEX = "0123456789abcdef";

/** `#rgb` or `#rrggbb` (any case) as `#rrggbb`, or null. */
export function normalizeColor(value: string): string | null {
	const text = value.trim().toLowerCase();
	if (text[0] !== "#" || (text.length !== 4 && text.length !== 7)) return null;
	for (let i = 1; i < text.length; i++) if (!HEX.includes(text[i])) return null;
	return text.length === 7 ? text : `#${text[1]}${text[1]}${text[2]}${text[2]}${text[3]}${text[3]}`;
}

/** Relative luminance of `#rrggbb` (WCAG 2). */
function luminance(color: string): number {
	const channel = (offset: number) => {
		const c = parseInt(color.slice(offset, offset + 2), 16) / 255;
		return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
	};
	return 0.2126 * channel(1) + 0.7152 * channel(3) + 0.0722 * channel(5);
}

/** White or near-black, whichever reads better on the accent colour (the higher WCAG contrast). */
export function textColorOn(accent: string): string {
	const l = luminance(accent);
	const onWhite = 1.05 / (l + 0.05);
	const onDark = (l + 0.05) / 0.05;
	return onWhite >= onDark ? "#ffffff" : "#111827";
}

/** Control characters other than line breaks and tabs have no place in text a visitor reads. */
function hasControlCharacters(text: string): boolean {
	for (const ch of text) {
		const code = ch.codePointAt(0) as number;
		if ((code < 32 && ch !== "\n" && ch !== "\r" && ch !== "\t") || code === 127) return true;
	}
	return false;
}

const length = (text: string) => [...text].length;

interface FieldRefusal {
	field: string;
	message: string;
}

/**
 * The settings after applying the form to `current`. Throws `validation_failed` naming every
 * refused field (nothing is applied then).
 */
export function applyWidgetSettings(current: WidgetSettings, input: WidgetSettingsInput): WidgetSettings {
	const refusals: FieldRefusal[] = [];
	const next: WidgetSettings = { ...current, suggested_questions: [...current.suggested_questions] };

	if (input.display_name !== undefined) {
		const name = input.display_name.trim();
		if (length(name) > MAX_DISPLAY_NAME) refusals.push({ field: "display_name", message: `The display name can have at most ${MAX_DISPLAY_NAME} characters.` });
		else if (name.includes("\n") || hasControlCharacters(name)) refusals.push({ field: "display_name", message: "The display name must be one line of text." });
		else next.display_name = name || null;
	}
	if (input.welcome_message !== undefined) {
		const welcome = input.welcome_message.trim().replace(/\r\n?/g, "\n");
		if (length(welcome) > MAX_WELCOME_MESSAGE) refusals.push({ field: "welcome_message", message: `The welcome message can have at most ${MAX_WELCOME_MESSAGE} characters.` });
		else if (hasControlCharacters(welcome)) refusals.push({ field: "welcome_message", message: "The welcome message has characters that cannot be shown." });
		else next.welcome_message = welcome || null;
	}
	if (input.suggested_questions !== undefined) {
		const lines = input.suggested_questions
			.split("\n")
			.map(line => line.trim())
			.filter(line => line.length > 0);
		if (lines.length > MAX_SUGGESTED_QUESTIONS) refusals.push({ field: "suggested_questions", message: `At most ${MAX_SUGGESTED_QUESTIONS} suggested questions, one per line.` });
		else if (lines.some(line => length(line) > MAX_SUGGESTED_QUESTION)) refusals.push({ field: "suggested_questions", message: `Each suggested question can have at most ${MAX_SUGGESTED_QUESTION} characters.` });
		else if (lines.some(hasControlCharacters)) refusals.push({ field: "suggested_questions", message: "A suggested question has characters that cannot be shown." });
		else next.suggested_questions = [...new Set(lines)];
	}
	if (input.accent_color !== undefined) {
		const color = normalizeColor(input.accent_color);
		if (!color) refusals.push({ field: "accent_color", message: "The accent colour must be a hex colour such as #2563eb." });
		else next.accent_color = color;
	}
	if (input.position !== undefined) {
		if (!(WIDGET_POSITIONS as readonly string[]).includes(input.position)) refusals.push({ field: "position", message: "The position must be right or left." });
		else next.position = input.position as WidgetPosition;
	}
	if (input.language !== undefined) {
		if (!(LOCALES as readonly string[]).includes(input.language)) refusals.push({ field: "language", message: `The language must be one of ${LOCALES.join(", ")}.` });
		else next.language = input.language as Locale;
	}

	if (refusals.length > 0) {
		throw appError("validation_failed", refusals.map(r => r.message).join(" "), { detail: refusals[0].message, fields: refusals });
	}
	return next;
}
