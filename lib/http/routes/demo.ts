/** The seven demo-tool operations (SPEC §4.1), all under /api/tools and the `demo-api` budget. */
import { ACCEPTED_UPLOAD_TYPES, MAX_TEXT_CHARS, MAX_UPLOAD_BYTES, MAX_URL_LENGTH } from "../../chatbots/model";
import type { ParamDef, ResponseDef, RouteDef } from "./types";
import { error, json } from "./responses";

const sessionId: ParamDef = {
	name: "session_id",
	in: "path",
	required: true,
	description: "The opaque `session_id` returned by createDemoSession.",
	schema: { type: "string", minLength: 1, maxLength: 200 }
};

const session = (description: string): ResponseDef => ({ description, content: json("DemoSessionResponse") });

const common = {
	"400": error(
		"Malformed JSON, a body whose Content-Encoding does not match its bytes, a body nested more than 32 levels deep, or invalid parameters (`invalid_json`, `validation_failed`, with `errors.detail`)."
	),
	"413": error("`payload_too_large`: the body (decompressed) is over 512 KB."),
	"415": error("`unsupported_media_type`: a body that is not JSON, a charset other than UTF-8, or a Content-Encoding other than gzip, deflate or br."),
	"429": error("`rate_limited`: the demo-api budget is exhausted; see Retry-After."),
	"503": error("`unavailable` or `global_cap`: retry later.")
};
const expired = { "404": error("`expired`: no live demo has this session id. Create a new session.") };
const caps = (codes: string) => ({ "422": error(`A cap or content rule refused the request (${codes}); nothing was written.`) });

const base = { tags: ["Demo"], rateLimit: "demo-api" as const, documented: true };

export const demoRoutes: RouteDef[] = [
	{
		...base,
		operationId: "createDemoSession",
		method: "POST",
		path: "/api/tools/sessions",
		summary: "Create a demo session",
		description:
			"Creates an anonymous demo chatbot. The body is optional; `locale` `es` sets Spanish, anything else English. " +
			"Live demos are bounded service-wide (503 `global_cap`) and per client network, so that one place cannot fill the pool: " +
			"a network is an IPv4 address, or an IPv6 /64 (an IPv4-mapped IPv6 address counts as its IPv4 address), and may hold 20 live demos by default (429 `network_cap`, with Retry-After until its oldest demo expires). " +
			"Both bounds are reservations: simultaneous creations never pass them.",
		action: "demo-session.create",
		body: {
			kind: "json",
			required: false,
			schema: { type: "object", properties: { locale: { type: "string", description: "`en` or `es`; default `en`.", examples: ["en"] } } }
		},
		responses: {
			"200": session("The new session."),
			...common,
			"429": error("`rate_limited`: the demo-api budget is exhausted; or `network_cap`: the client network already holds its most live demos. See Retry-After."),
			"503": error("`global_cap`: the pool of live demos is full; or `unavailable`. Retry later (Retry-After).")
		}
	},
	{
		...base,
		operationId: "getDemoSession",
		method: "GET",
		path: "/api/tools/sessions/{session_id}",
		summary: "Get a demo session",
		description: "Returns the session with its sources and their extraction status. Poll it after training until `status` is `ready`.",
		action: "demo-session.get",
		params: [sessionId],
		responses: { "200": session("The session."), ...expired, ...common }
	},
	{
		...base,
		operationId: "addDemoSessionUrl",
		method: "POST",
		path: "/api/tools/sessions/{session_id}/urls",
		summary: "Add a web page",
		description: "Fetches the page during the request (rendered in a headless browser), extracts its main text and attaches it. It is embedded when training runs.",
		action: "demo-session.addUrl",
		params: [sessionId],
		body: {
			kind: "json",
			required: true,
			schema: {
				type: "object",
				required: ["url"],
				additionalProperties: false,
				properties: { url: { type: "string", format: "uri", pattern: "^https?://", maxLength: MAX_URL_LENGTH, description: "Full public URL with http or https scheme." } }
			}
		},
		responses: { "200": session("The session with the new URL and its `char_count`."), ...expired, ...caps("`url_cap`, `char_cap`, `empty`"), ...common }
	},
	{
		...base,
		operationId: "addDemoSessionText",
		method: "POST",
		path: "/api/tools/sessions/{session_id}/texts",
		summary: "Add text",
		description: "Attaches free text. It counts against the session's character budget, shared with pages and files.",
		action: "demo-session.addText",
		params: [sessionId],
		body: {
			kind: "json",
			required: true,
			schema: { type: "object", required: ["text"], additionalProperties: false, properties: { text: { type: "string", maxLength: MAX_TEXT_CHARS, "x-cap-code": "char_cap", description: `At most ${MAX_TEXT_CHARS} characters; longer text is refused with 422 char_cap.` } } }
		},
		responses: { "200": session("The session with the new text."), ...expired, ...caps("`char_cap`, `empty`"), ...common }
	},
	{
		...base,
		operationId: "createDemoSessionUpload",
		method: "POST",
		path: "/api/tools/sessions/{session_id}/uploads",
		summary: "Get a presigned upload target",
		description:
			"Step 1 of 3 of the file flow: returns a PUT URL valid 10 minutes. PUT the bytes with the same Content-Type, then call addDemoSessionFile. " +
			"Each URL takes one upload. A session holds at most as many unattached, unexpired upload URLs as files it can still attach (422 `file_cap` past that); an upload never attached is deleted a few minutes after its URL expires.",
		action: "demo-session.createUpload",
		params: [sessionId],
		body: {
			kind: "json",
			required: true,
			schema: {
				type: "object",
				required: ["filename", "content_type"],
				additionalProperties: false,
				properties: {
					filename: { type: "string", minLength: 1, maxLength: 255 },
					content_type: { type: "string", description: `One of: ${ACCEPTED_UPLOAD_TYPES.join(", ")}.`, examples: ["application/pdf"] },
					size: { type: "integer", minimum: 0, description: `Bytes; at most ${MAX_UPLOAD_BYTES}.` }
				}
			}
		},
		responses: { "200": { description: "The upload target.", content: json("UploadTarget") }, ...expired, ...caps("`file_cap`, `file_type`, `file_size`"), ...common }
	},
	{
		...base,
		operationId: "addDemoSessionFile",
		method: "POST",
		path: "/api/tools/sessions/{session_id}/files",
		summary: "Attach an uploaded file",
		description: "Step 3 of the file flow: attaches the object uploaded under `file_s3_key`. Extraction runs in the background; watch the file's `status` with getDemoSession.",
		action: "demo-session.addFile",
		params: [sessionId],
		body: {
			kind: "json",
			required: true,
			schema: {
				type: "object",
				required: ["file_name", "file_s3_key"],
				additionalProperties: false,
				properties: {
					file_name: { type: "string", minLength: 1, maxLength: 255 },
					file_s3_key: { type: "string", minLength: 1, maxLength: 400 },
					file_size: { type: "integer", minimum: 0 },
					file_content_type: { type: "string" }
				}
			}
		},
		responses: {
			"200": session("The session including the new file (status `pending`)."),
			...expired,
			...caps("`file_cap`, `file_type`, `file_size`, `empty` when nothing was uploaded under the key"),
			"409": error("`conflict`: this key is already attached."),
			...common
		}
	},
	{
		...base,
		operationId: "trainDemoSession",
		method: "POST",
		path: "/api/tools/sessions/{session_id}/training",
		summary: "Train the demo chatbot",
		description: "Answers at once with the session `training`; chunking and indexing run in the background. Poll getDemoSession until `ready`.",
		action: "demo-session.train",
		params: [sessionId],
		responses: { "200": session("The session, now training."), ...expired, ...caps("`empty`: nothing trainable"), ...common }
	}
];
