/** Parameter schemas shared by the chatbots service's actions (fastest-validator). */
import { CHATBOT_KINDS, FAILURE_CODES, LOCALES, MAX_URL_LENGTH, SOURCE_KINDS } from "../../lib/chatbots/model";

export const limitsSchema = {
	type: "object",
	props: {
		max_urls: "number|integer|min:0",
		max_files: "number|integer|min:0",
		max_chars: "number|integer|min:0",
		max_messages: "number|integer|min:0",
		max_pages: "number|integer|min:0"
	}
} as const;

/** Optional on actions a caller may aim at someone else's chatbot: the chatbot must be theirs. */
export const ownerSchema = {
	type: "object",
	optional: true,
	props: { account_id: { type: "string", min: 1, nullable: true } }
} as const;

export const id = { type: "string", min: 1, max: 100 } as const;
/** An address to fetch; the crawler decides what it can fetch (http and https, public hosts). */
export const pageUrl = { type: "string", min: 1, max: MAX_URL_LENGTH } as const;
export const kindSchema = { type: "enum", values: [...CHATBOT_KINDS] } as const;
export const localeSchema = { type: "enum", values: [...LOCALES] } as const;
export const sourceKindSchema = { type: "enum", values: [...SOURCE_KINDS] } as const;
export const failureCodeSchema = { type: "enum", values: [...FAILURE_CODES] } as const;
export const countSchema = "number|integer|min:0";
