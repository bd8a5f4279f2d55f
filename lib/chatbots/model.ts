/**
 * The knowledge model: a chatbot, its limits and counters, and its sources.
 *
 * Counters live on the chatbot document so every cap is enforced by one atomic conditional update
 * (see `gates.ts`); source documents (with their extracted text) live in their own collection.
 * Times are epoch milliseconds: they survive JSON over the bus unchanged, unlike Date objects.
 */
import { ACCEPTED_CONTENT_TYPES } from "../extract/extract-text";
import type { SourceFailure, SourceFailureCode } from "../failures";
import type { Locale } from "../locales";
import type { WidgetSettings } from "../widget/settings";
import type { MessagePeriod } from "./message-period";

export { LOCALES, type Locale } from "../locales";

export const CHATBOT_KINDS = ["demo", "sandbox", "account"] as const;
export type ChatbotKind = (typeof CHATBOT_KINDS)[number];
export const SOURCE_KINDS = ["url", "file", "text", "qa"] as const;
export type SourceKind = (typeof SOURCE_KINDS)[number];
/** Extraction status of a source: `pending` until its text is read, `processing` while it is. */
export const SOURCE_STATUSES = ["pending", "processing", "ready", "failed"] as const;
export type SourceStatus = (typeof SOURCE_STATUSES)[number];
/** Why a source failed, defined with the failures that produce them (lib/failures.ts). */
export { SOURCE_FAILURE_CODES as FAILURE_CODES } from "../failures";
export type FailureCode = SourceFailureCode;
/** `idle`: no site crawl; `queued`: waiting for a crawler; then `crawling` and `done` or `failed`. */
export const CRAWL_STATUSES = ["idle", "queued", "crawling", "done", "failed"] as const;
export type CrawlStatus = (typeof CRAWL_STATUSES)[number];

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

/** Pages of a site crawl so far. */
export interface CrawlCounts {
	found: number;
	crawled: number;
	failed: number;
}

/** The site crawl of a chatbot built from a website (at most one at a time). */
export interface CrawlState extends CrawlCounts {
	status: CrawlStatus;
	start_url: string | null;
	/** Pages this crawl may fetch. */
	max_pages: number;
	/** Train once the crawl is over (the tool server's create_chatbot). */
	then_train: boolean;
	updated_at: number;
	/** The first pages that could not be added, with the reason in words (absent before any failed). */
	failures?: CrawlFailure[];
}

/** A page of a site crawl that gave nothing to train on, and why. */
export interface CrawlFailure {
	url: string;
	reason: string;
}

/** Failed pages of a crawl kept with their reason; `failed` counts them all. */
export const MAX_KEPT_CRAWL_FAILURES = 20;

/** A training run in progress. */
export interface TrainingRun {
	job_id: string;
	/** Index generation the run writes; searched once the run finishes. */
	generation: number;
	/** The sources_version the run indexes. */
	sources_version: number;
	started_at: number;
}

export interface Chatbot {
	_id: string;
	slug: string;
	kind: ChatbotKind;
	name: string;
	locale: Locale;
	limits: ChatbotLimits;
	counts: ChatbotCounters;
	/** Bumped on every change of sources; training records which version it indexed. */
	sources_version: number;
	/** The sources_version the answering index was built from. */
	trained_version: number;
	/**
	 * Training was asked for up to this sources_version (by a crawl that ends in training, or a tool
	 * that adds knowledge); the owner starts a run when nothing else is running.
	 */
	train_target: number;
	/** True while a training request waits for a run (an index for the lifecycle sweep). */
	train_pending: boolean;
	/** Index generation the chatbot answers from (0: never trained). */
	generation: number;
	/** The training run in progress, if any. */
	training: TrainingRun | null;
	/** Why the last training run failed, until one succeeds. */
	training_error: string | null;
	crawl: CrawlState;
	account_id: string | null;
	/** Hash of the claim token (anonymous sandboxes only). */
	claim_hash: string | null;
	/**
	 * Account chatbots: the period `counts.messages` belongs to (lib/chatbots/message-period.ts).
	 * Absent or null: a lifetime count (demos, sandboxes, account chatbots stored before periods).
	 */
	message_period?: MessagePeriod | null;
	/**
	 * True while the account holds more chatbots than its plan allows and this one is not among those
	 * the owner keeps answering. Nothing is deleted; a paused chatbot answers again when chosen.
	 */
	paused?: boolean;
	/** Revision of the account's plan last applied to this chatbot (an older one never overwrites it). */
	plan_revision?: number;
	/** The owner's widget settings (Deploy page); absent: the defaults for its language (lib/widget/settings.ts). */
	widget?: WidgetSettings | null;
	expires_at: number | null;
	created_at: number;
	updated_at: number;
}

export type Failure = SourceFailure;

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

/** Longest page address accepted anywhere (HTTP routes, tools, the crawler). */
export const MAX_URL_LENGTH = 2048;
