/**
 * Why a page could not be fetched, as a typed reason carried on the error's `data`.
 *
 * Every crawl failure is an `appError` (so it survives the trip over the bus with its stable code)
 * whose `data.reason` says precisely what went wrong. The code decides what a client of the demo API
 * sees; the reason lets a caller report a failed page of a site crawl, or log the cause, without
 * parsing messages. Messages never name resolved IP addresses: telling a caller which private
 * address a name resolves to would itself leak internal network layout.
 */
import type { Errors } from "moleculer";
import { appError, ErrorCode, ErrorData } from "../errors";

export type FetchFailure =
	| "invalid_url"
	| "blocked_address"
	| "timeout"
	| "too_large"
	| "too_many_redirects"
	| "http_status"
	| "robots_disallowed"
	| "unsupported_content_type"
	| "network"
	| "empty";

export interface FetchFailureData extends ErrorData {
	reason: FetchFailure;
	/** The URL whose fetch failed (may be a redirect target rather than the URL asked for). */
	url?: string;
	/** The HTTP status when `reason` is `http_status`. */
	status?: number;
}

/**
 * Stable code per reason. A bad URL is the caller's syntax mistake (400); a refused address or a
 * robots.txt refusal is a policy decision that will not change on retry (403). Everything else means
 * "this URL gave us nothing trainable" from the contract's point of view: SPEC §7.2 defines `empty`
 * for exactly that and lists it for addDemoSessionUrl, so a slow, huge or broken remote page is not
 * reported as a fault of ours (504/500) that a client would retry.
 */
const CODE_BY_REASON: Record<FetchFailure, ErrorCode> = {
	invalid_url: "validation_failed",
	blocked_address: "forbidden",
	robots_disallowed: "forbidden",
	timeout: "empty",
	too_large: "empty",
	too_many_redirects: "empty",
	http_status: "empty",
	unsupported_content_type: "empty",
	network: "empty",
	empty: "empty"
};

export function fetchFailure(
	reason: FetchFailure,
	message: string,
	extra: Omit<FetchFailureData, "reason"> = {}
): Errors.MoleculerError {
	const data: FetchFailureData = { ...extra, reason };
	return appError(CODE_BY_REASON[reason], message, data);
}

const REASONS = new Set<string>(Object.keys(CODE_BY_REASON));

/** The typed reason of a crawl failure, or undefined when `err` is not one (a bug, not a page problem). */
export function fetchFailureReason(err: unknown): FetchFailure | undefined {
	if (!err || typeof err !== "object") return undefined;
	const data = (err as { data?: unknown }).data;
	if (!data || typeof data !== "object") return undefined;
	const reason = (data as { reason?: unknown }).reason;
	return typeof reason === "string" && REASONS.has(reason) ? (reason as FetchFailure) : undefined;
}
