/**
 * Body parsing for the gateway's JSON and form routes: body-parser reads and decodes the body
 * (Content-Encoding gzip, deflate and br included, the limit applying to the decoded size), and
 * every way a body can be wrong becomes a typed 4xx here — before moleculer-web, which would turn
 * a decompression failure into a 500. A parsed JSON body nested deeper than MAX_JSON_DEPTH is
 * refused too: the code after parsing (validation, the bus's serializer) recurses.
 *
 * A body no parser takes (another media type) is refused with 415 instead of being ignored: an
 * ignored body is never read, so a request whose framing breaks off inside it (a bad chunk) would
 * reach its action while Node answers the client 400 — an action run for a refused request.
 */
import type { ServerResponse } from "node:http";
import bodyParser from "body-parser";
import { appError } from "../../lib/errors";
import { bodyParserFailure } from "../../lib/http/body-errors";
import { MAX_JSON_DEPTH, nestedDeeperThan } from "../../lib/http/json-depth";
import type { GatewayRequest } from "./context";

type Next = (err?: unknown) => void;

/** True when the request announces body bytes (chunked, or a non-zero Content-Length). */
function announcesBody(req: GatewayRequest): boolean {
	if (req.headers["transfer-encoding"] !== undefined) return true;
	const length = Number(req.headers["content-length"] ?? 0);
	return !Number.isFinite(length) || length > 0;
}
type Parser = (req: GatewayRequest, res: ServerResponse, next: Next) => void;

export function bodyParsing(opts: { limit: string; forms: boolean }): Parser {
	const parsers: Parser[] = [bodyParser.json({ strict: false, limit: opts.limit }) as unknown as Parser];
	if (opts.forms) parsers.push(bodyParser.urlencoded({ extended: false, limit: opts.limit }) as unknown as Parser);
	return (req, res, next) => {
		// No body at all (a GET, no length, not chunked): what the parsers would conclude without them.
		if (req.headers["transfer-encoding"] === undefined && req.headers["content-length"] === undefined) {
			if (!("body" in req)) req.body = undefined;
			next();
			return;
		}
		const encoding = req.headers["content-encoding"];
		const run = (index: number): void => {
			if (index === parsers.length) {
				if (req.body === undefined && req.method !== "GET" && req.method !== "HEAD" && announcesBody(req)) {
					const type = String(req.headers["content-type"] ?? "").slice(0, 80) || "none";
					next(appError("unsupported_media_type", `This endpoint takes ${opts.forms ? "a JSON or form" : "a JSON"} body; Content-Type "${type}" is not one.`));
					return;
				}
				if (nestedDeeperThan(req.body, MAX_JSON_DEPTH)) {
					next(appError("validation_failed", `The request body nests more than ${MAX_JSON_DEPTH} levels deep.`, { hint: "Send a flat JSON object as the endpoint documents." }));
					return;
				}
				next();
				return;
			}
			parsers[index](req, res, err => (err ? next(bodyParserFailure(err, Array.isArray(encoding) ? encoding.join(",") : encoding)) : run(index + 1)));
		};
		run(0);
	};
}
