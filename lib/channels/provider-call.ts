/**
 * One outbound call to a provider's HTTP API (Telegram, Crisp), retried the way both ask to be:
 * a refused connection, a timeout, 429 or a 5xx is tried again after a back-off (doubling, with
 * jitter), or after exactly the wait the provider named: Telegram's `parameters.retry_after` in the
 * body, or a `Retry-After` header (seconds or an HTTP date). Any other 4xx is final at once. After
 * the last try, or when the provider asks for a wait longer than the policy allows, the call fails
 * with a `ProviderFailure` saying why, in words fit for the owner's channel status.
 *
 * Every wait and request stops when `signal` aborts (the job's deadline, or the node stopping).
 */

export interface RetryPolicy {
	/** Tries in all, the first included. */
	attempts: number;
	/** First back-off; each later one doubles, up to `maxDelayMs`. */
	baseDelayMs: number;
	maxDelayMs: number;
	/** Longest wait a provider may ask for before the call gives up instead. */
	maxRetryAfterMs: number;
	/** Longest one request may take. */
	timeoutMs: number;
}

export const DEFAULT_RETRY: RetryPolicy = { attempts: 5, baseDelayMs: 1_000, maxDelayMs: 30_000, maxRetryAfterMs: 120_000, timeoutMs: 15_000 };

export interface ProviderRequest {
	method: "GET" | "POST";
	url: string;
	headers?: Record<string, string>;
	body?: unknown;
}

export interface ProviderResponse {
	status: number;
	body: unknown;
	/** No answer was had, but `confirmed` said the request went through (see CallOptions). */
	confirmedElsewhere?: true;
}

/** A call that did not succeed and will not be tried again. `status` is null when nothing answered. */
export class ProviderFailure extends Error {
	constructor(
		message: string,
		readonly status: number | null,
		readonly attempts: number
	) {
		super(message);
		this.name = "ProviderFailure";
	}
}

export interface CallOptions {
	policy: RetryPolicy;
	signal?: AbortSignal;
	/** Provider name for messages ("Telegram"). */
	provider: string;
	/** The provider's own words for a refusal, when its body has them. */
	describe?: (body: unknown) => string | undefined;
	/**
	 * Asked before each retry: a request that timed out or failed may still have gone through, and
	 * the provider may have said so another way (Crisp echoes a delivered message). True: done, no retry.
	 */
	confirmed?: () => Promise<boolean>;
}

type Attempt = { kind: "done"; response: ProviderResponse } | { kind: "retry"; waitMs: number | undefined; why: string; status: number | null } | { kind: "final"; why: string; status: number };

const sleep = (ms: number, signal?: AbortSignal) =>
	new Promise<void>((resolve, reject) => {
		if (signal?.aborted) return reject(signal.reason);
		const timer = setTimeout(() => {
			signal?.removeEventListener("abort", onAbort);
			resolve();
		}, ms);
		const onAbort = () => {
			clearTimeout(timer);
			reject(signal?.reason);
		};
		signal?.addEventListener("abort", onAbort, { once: true });
	});

/** The wait a 429 or 503 asks for, in ms: Telegram's body field, else the Retry-After header. */
export function requestedWaitMs(body: unknown, retryAfterHeader: string | null, now = Date.now()): number | undefined {
	const seconds = (body as { parameters?: { retry_after?: unknown } } | null)?.parameters?.retry_after;
	if (typeof seconds === "number" && Number.isFinite(seconds) && seconds >= 0) return seconds * 1000;
	if (retryAfterHeader === null) return undefined;
	const trimmed = retryAfterHeader.trim();
	if (/^[0-9]{1,9}$/.test(trimmed)) return Number(trimmed) * 1000;
	const date = Date.parse(trimmed);
	return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}

function backoffMs(policy: RetryPolicy, attempt: number): number {
	const base = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** (attempt - 1));
	return Math.round(base / 2 + Math.random() * (base / 2));
}

async function attemptOnce(request: ProviderRequest, options: CallOptions): Promise<Attempt> {
	const timeout = AbortSignal.timeout(options.policy.timeoutMs);
	const signal = options.signal ? AbortSignal.any([options.signal, timeout]) : timeout;
	let res: Response;
	let body: unknown;
	try {
		res = await fetch(request.url, {
			method: request.method,
			headers: { Accept: "application/json", ...(request.body !== undefined ? { "Content-Type": "application/json" } : {}), ...request.headers },
			body: request.body === undefined ? undefined : JSON.stringify(request.body),
			signal
		});
		const text = await res.text();
		try {
			body = text ? JSON.parse(text) : undefined;
		} catch {
			body = undefined;
		}
	} catch (err) {
		if (options.signal?.aborted) throw options.signal.reason;
		const why = timeout.aborted ? `${options.provider} did not answer within ${Math.round(options.policy.timeoutMs / 1000)} s` : `${options.provider} could not be reached`;
		return { kind: "retry", waitMs: undefined, why, status: null };
	}
	if (res.status >= 200 && res.status < 300) return { kind: "done", response: { status: res.status, body } };
	const said = options.describe?.(body);
	const why = `${options.provider} answered ${res.status}${said ? `: ${said}` : ""}`;
	if (res.status === 429 || res.status >= 500) return { kind: "retry", waitMs: requestedWaitMs(body, res.headers.get("retry-after")), why, status: res.status };
	return { kind: "final", why, status: res.status };
}

/** Sends the request, retrying as the file comment says; resolves with the first 2xx response. */
export async function callProvider(request: ProviderRequest, options: CallOptions): Promise<ProviderResponse> {
	const { policy } = options;
	for (let attempt = 1; ; attempt++) {
		const outcome = await attemptOnce(request, options);
		if (outcome.kind === "done") return outcome.response;
		if (outcome.kind === "final") throw new ProviderFailure(outcome.why, outcome.status, attempt);
		if (attempt >= policy.attempts) throw new ProviderFailure(`${outcome.why} (${attempt} tries)`, outcome.status, attempt);
		if (outcome.waitMs !== undefined && outcome.waitMs > policy.maxRetryAfterMs) {
			throw new ProviderFailure(`${outcome.why}; it asked to wait ${Math.ceil(outcome.waitMs / 1000)} s`, outcome.status, attempt);
		}
		await sleep(outcome.waitMs ?? backoffMs(policy, attempt), options.signal);
		if (await options.confirmed?.()) return { status: 0, body: undefined, confirmedElsewhere: true };
	}
}
