/**
 * Guarded HTTP(S) GET.
 *
 * Built on node:http/https rather than fetch so the connection can be pinned: each hop resolves the
 * host once, checks every address, and hands exactly those addresses to the socket through a custom
 * `lookup`. The socket can therefore only connect to an address that passed the check; a DNS answer
 * that changes between check and connect (DNS rebinding) cannot redirect it. Redirects are followed by
 * hand so every hop goes through the same checks, scheme included.
 */
import * as http from "node:http";
import * as https from "node:https";
import type * as net from "node:net";
import { fetchFailure } from "../failures";
import { decodeText, parseContentType, readCappedBody, sniffMime } from "./http-body";
import { AddressGuardOptions, assertFetchableUrl, bareHostname, ResolvedAddress, resolveAndCheck } from "./ssrf";

/** The crawl settings every fetch needs; the same fields as `config.crawl`. */
export interface CrawlOptions extends AddressGuardOptions {
	/** Budget for the whole fetch, redirects and body included. */
	timeoutMs: number;
	/** Cap on the body, compressed and decompressed. */
	maxBytes: number;
	maxRedirects: number;
	userAgent: string;
}

export interface FetchPageOptions extends CrawlOptions {
	/** MIME types accepted (lower-case essence). Defaults to HTML, XHTML and plain text. */
	accept?: readonly string[];
}

export interface FetchedPage {
	finalUrl: string;
	status: number;
	/** Lower-case MIME essence of the body. */
	contentType: string;
	body: string;
}

export const PAGE_TYPES = ["text/html", "application/xhtml+xml", "text/plain"] as const;

const REDIRECT_STATUSES = new Set([301, 302, 303, 307, 308]);

/** A `lookup` that answers only with the addresses already checked for this hop. */
function pinnedLookup(addresses: ResolvedAddress[]): net.LookupFunction {
	return (_hostname, options, callback) => {
		const wanted = options.family === 6 || options.family === "IPv6" ? 6 : options.family === 4 || options.family === "IPv4" ? 4 : 0;
		const matching = wanted ? addresses.filter(a => a.family === wanted) : addresses;
		const candidates = matching.length > 0 ? matching : addresses;
		if (options.all) callback(null, candidates.map(a => ({ address: a.address, family: a.family })));
		else callback(null, candidates[0].address, candidates[0].family);
	};
}

function requestOnce(url: URL, opts: FetchPageOptions, addresses: ResolvedAddress[], signal: AbortSignal): Promise<http.IncomingMessage> {
	const client = url.protocol === "https:" ? https : http;
	const accept = opts.accept ?? PAGE_TYPES;
	return new Promise((resolve, reject) => {
		const req = client.request({
			protocol: url.protocol,
			hostname: bareHostname(url),
			port: url.port || (url.protocol === "https:" ? 443 : 80),
			path: `${url.pathname}${url.search}`,
			method: "GET",
			headers: {
				"user-agent": opts.userAgent,
				accept: accept.join(", "),
				"accept-encoding": "gzip, deflate, br"
			},
			lookup: pinnedLookup(addresses),
			// A fresh socket per hop: a pooled socket would skip the pinned lookup of this hop.
			agent: false,
			signal
		});
		req.once("response", resolve);
		req.once("error", () => reject(fetchFailure("network", `The server of ${url.host} could not be reached.`, { url: url.href })));
		req.end();
	});
}

async function follow(start: string, opts: FetchPageOptions, signal: AbortSignal): Promise<FetchedPage> {
	const accept = opts.accept ?? PAGE_TYPES;
	let url = assertFetchableUrl(start, opts);
	for (let hop = 0; ; hop++) {
		const addresses = await resolveAndCheck(bareHostname(url), opts);
		const res = await requestOnce(url, opts, addresses, signal);
		const status = res.statusCode ?? 0;
		const location = res.headers.location;
		if (REDIRECT_STATUSES.has(status) && location) {
			res.destroy();
			if (hop >= opts.maxRedirects) {
				throw fetchFailure("too_many_redirects", `The page redirected more than ${opts.maxRedirects} times.`, { url: start });
			}
			let next: URL;
			try {
				next = new URL(location, url);
			} catch {
				throw fetchFailure("network", "The page redirected to an invalid URL.", { url: url.href });
			}
			url = assertFetchableUrl(next.href, opts);
			continue;
		}
		if (status < 200 || status >= 300) {
			res.destroy();
			throw fetchFailure("http_status", `The page answered with HTTP status ${status}.`, { url: url.href, status });
		}
		const declared = parseContentType(res.headers["content-type"]);
		if (declared.mime && !accept.includes(declared.mime)) {
			res.destroy();
			throw fetchFailure("unsupported_content_type", `The page is ${declared.mime}, which cannot be read as text.`, { url: url.href });
		}
		const body = await readCappedBody(res, opts.maxBytes, url.href);
		const type = declared.mime ? declared : { mime: sniffMime(body), charset: undefined };
		if (!accept.includes(type.mime)) {
			throw fetchFailure("unsupported_content_type", "The page has no content type and does not look like text.", { url: url.href });
		}
		return { finalUrl: url.href, status, contentType: type.mime, body: decodeText(body, type) };
	}
}

/**
 * GETs `url` under the SSRF guard, following at most `maxRedirects` redirects, and returns the body as
 * text. Rejects with a `fetchFailure` whose `data.reason` says why.
 */
export async function fetchPage(url: string, opts: FetchPageOptions): Promise<FetchedPage> {
	const controller = new AbortController();
	let timer: NodeJS.Timeout | undefined;
	const deadline = new Promise<never>((_, reject) => {
		timer = setTimeout(() => {
			controller.abort();
			reject(fetchFailure("timeout", `The page did not load within ${opts.timeoutMs} ms.`, { url }));
		}, opts.timeoutMs);
	});
	const work = follow(url, opts, controller.signal);
	// Once the deadline wins, the aborted work rejects in the background; nothing is waiting for it.
	work.catch(() => undefined);
	try {
		return await Promise.race([work, deadline]);
	} finally {
		clearTimeout(timer);
		controller.abort();
	}
}
