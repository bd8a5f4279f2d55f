/**
 * The knowledge model: a chatbot, its limits and counters, and its sources.
 *
 * Counters live on the chatbot document so every cap is enforced by one atomic conditional update
 * (see `gates.ts`); source documents (with their extracted text) live in their own collection.
 * Times are epoch milliseconds: they survive JSON over the bus unchanged, unlike Date objects.
 */
import { ACCEPTED_CONTENT_TYPES } from "../extract/extract-text";

export type Locale = "en" | "es";
export type ChatbotKind = "demo" | "sandbox" | "account";
export type TrainingStatus = "queued" | "training" | "ready";
export type SourceKind = "url" | "file" | "text" | "qa";
export type SourceStatus = "pending" | "processing" | "ready" | "failed";
export type FailureCode = "empty" | "char_cap" | "unreadable" | "file_type" | "file_size" | "timeout" | "blocked" | "fetch_failed";

export interface ChatbotLimits {
	max_urls: number;
	max_files: number;
	max_chars: number;
	max_messages: number;
	/** Pages a site crawl may fetch (tool-server chatbots). */
	max_pages: number;
}

export interface ChatbotCounters {
	urls: number;
	files: number;
	chars: number;
	messages: number;
}

export interface CrawlProgress {
	status: "idle" | "crawling" | "done" | "failed";
	start_url: string | null;
	found: number;
	crawled: number;
	failed: number;
}

export interface Chatbot {
	_id: string;
	slug: string;
	kind: ChatbotKind;
	name: string;
	locale: Locale;
	status: TrainingStatus;
	limits: ChatbotLimits;
	counts: ChatbotCounters;
	/** Bumped on every change of sources; training records which version it indexed. */
	sources_version: number;
	trained_version: number;
	/** Index generation the chatbot answers from (0: never trained). */
	generation: number;
	/** The training run in progress, if any. */
	training: { job_id: string; generation: number; sources_version: number; started_at: number } | null;
	crawl: CrawlProgress;
	account_id: string | null;
	/** Hash of the claim token (anonymous sandboxes only). */
	claim_hash: string | null;
	expires_at: number | null;
	created_at: number;
	updated_at: number;
}

export interface Failure {
	code: FailureCode;
	message: string;
}

export interface Source {
	_id: string;
	chatbot_id: string;
	kind: SourceKind;
	status: SourceStatus;
	url: string | null;
	domain: string | null;
	title: string | null;
	file_name: string | null;
	storage_key: string | null;
	content_type: string | null;
	question: string | null;
	answer: string | null;
	text: string | null;
	char_count: number | null;
	failure: Failure | null;
	created_at: number;
	updated_at: number;
}

export const DEMO_LIMITS: ChatbotLimits = { max_urls: 3, max_files: 3, max_chars: 50_000, max_messages: 20, max_pages: 3 };
export const MAX_TEXT_CHARS = 50_000;
export const MAX_UPLOAD_BYTES = 10_000_000;
export const UPLOAD_URL_TTL_SECONDS = 600;
/** The five upload types of SPEC §4.1: exactly the ones the extractor reads. */
export const ACCEPTED_UPLOAD_TYPES = ACCEPTED_CONTENT_TYPES;

export function newCounters(): ChatbotCounters {
	return { urls: 0, files: 0, chars: 0, messages: 0 };
}

/** Characters as people (and JSON Schema's maxLength) count them: Unicode code points. */
export function charCount(text: string): number {
	let n = 0;
	for (const _ of text) n++;
	return n;
}
