/**
 * How page and file failures reach clients (lib/failures.ts): crawl failures as demo-API errors and
 * extraction failures as source failure codes.
 */
import { Errors } from "moleculer";
import {
	extractionFailure,
	ExtractionFailure,
	extractionFailureReason,
	fetchFailure,
	FetchFailure,
	fetchFailureReason,
	noTextFailure,
	pageFetchClientError,
	sourceFailureOf
} from "../../lib/failures";

describe("pageFetchClientError", () => {
	it("a URL that is not http(s) is 400 validation_failed naming the field", () => {
		const err = pageFetchClientError(fetchFailure("invalid_url", "Only http and https URLs can be fetched."));
		expect(err).toMatchObject({ type: "validation_failed", code: 400 });
		expect(err?.data).toMatchObject({ detail: "'url': Only http and https URLs can be fetched.", fields: [{ field: "url" }], reason: "invalid_url" });
	});

	it("a refused address is 422 empty saying so, with the guard's message as detail", () => {
		const err = pageFetchClientError(fetchFailure("blocked_address", "The address of localhost is not public and cannot be fetched."));
		expect(err).toMatchObject({ type: "empty", code: 422 });
		expect(err?.message).toContain("resolves to a non-public address");
		expect(err?.data).toMatchObject({ detail: "The address of localhost is not public and cannot be fetched.", reason: "blocked_address" });
	});

	it.each<[FetchFailure, string, RegExp]>([
		["robots_disallowed", "robots.txt of a.example does not allow fetching this page.", /robots\.txt/],
		["empty", "The page has no readable text.", /no readable text/],
		["http_status", "The page answered with HTTP status 404.", /nothing to train on: the page answered with HTTP status 404/],
		["timeout", "The page did not load within 15000 ms.", /did not load within 15000 ms/],
		["too_large", "The page is larger than 5000000 bytes.", /larger than/],
		["network", "The server of a.example could not be reached.", /could not be reached/]
	])("%s is 422 empty with the cause", (reason, cause, message) => {
		const err = pageFetchClientError(fetchFailure(reason, cause));
		expect(err).toMatchObject({ type: "empty", code: 422 });
		expect(err?.message).toMatch(message);
		expect(err?.data).toMatchObject({ detail: cause, reason });
	});

	it("leaves errors that are not fetch failures alone", () => {
		expect(pageFetchClientError(new Error("a bug"))).toBeUndefined();
	});
});

describe("sourceFailureOf", () => {
	it.each<[ExtractionFailure, string]>([
		["empty", "empty"],
		["unreadable", "unreadable"],
		["bomb", "unreadable"],
		["too_large", "file_size"],
		["timeout", "timeout"],
		["unsupported_type", "file_type"],
		["type_mismatch", "file_type"]
	])("%s becomes %s with the library's message", (reason, code) => {
		expect(sourceFailureOf(extractionFailure(reason, `because ${reason}`))).toEqual({ code, message: `because ${reason}` });
	});

	it("is undefined for errors that are not extraction failures", () => {
		expect(sourceFailureOf(new Error("worker crashed"))).toBeUndefined();
	});

	it("a PDF without text is reported as lacking a text layer", () => {
		expect(noTextFailure("application/pdf", "scan.pdf")).toEqual({ code: "empty", message: expect.stringMatching(/^scan\.pdf has no text layer/) });
		expect(noTextFailure("text/plain", "blank.txt")).toEqual({ code: "empty", message: "No readable text was found in blank.txt." });
	});
});

describe("one failure table for both stages", () => {
	it("the same reason name means different codes per stage: a page too large is empty, a file too large is file_size", () => {
		expect(fetchFailure("too_large", "big page")).toMatchObject({ type: "empty", code: 422, data: { stage: "fetch", reason: "too_large" } });
		expect(extractionFailure("too_large", "big file")).toMatchObject({ type: "file_size", code: 422, data: { stage: "extract", reason: "too_large" } });
	});

	it("each stage recognises only its own failures", () => {
		const page = fetchFailure("timeout", "slow page");
		const file = extractionFailure("timeout", "slow file");
		expect([fetchFailureReason(page), extractionFailureReason(page)]).toEqual(["timeout", undefined]);
		expect([fetchFailureReason(file), extractionFailureReason(file)]).toEqual([undefined, "timeout"]);
		// A client error made from a failure carries the reason but is not itself a failure of a stage.
		expect(fetchFailureReason(pageFetchClientError(page))).toBeUndefined();
	});

	it.each<[FetchFailure, string]>([
		["blocked_address", "blocked"],
		["robots_disallowed", "blocked"],
		["timeout", "timeout"],
		["empty", "empty"],
		["http_status", "fetch_failed"],
		["network", "fetch_failed"]
	])("a page failing with %s is stored on its source as %s", (reason, code) => {
		expect(sourceFailureOf(fetchFailure(reason, "why"))).toEqual({ code, message: "why" });
	});

	it("survives the trip over the bus: a failure rebuilt from its wire form is still recognised", () => {
		const sent = extractionFailure("bomb", "inflates too far");
		const wire = JSON.parse(JSON.stringify({ message: sent.message, code: sent.code, type: sent.type, data: sent.data }));
		const rebuilt = new Errors.MoleculerClientError(wire.message, wire.code, wire.type, wire.data);
		expect(sourceFailureOf(rebuilt)).toEqual({ code: "unreadable", message: "inflates too far" });
	});
});
