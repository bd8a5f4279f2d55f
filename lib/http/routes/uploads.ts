import type { RouteDef } from "./types";
import { ref } from "./types";

/** The embedded store's upload target; with S3 configured, uploads go to S3 and this is unused. */
export const uploadRoutes: RouteDef[] = [
	{
		operationId: "putUpload",
		method: "PUT",
		path: "/uploads/{token}",
		summary: "Upload file bytes to a presigned target",
		description:
			"Step 2 of the file flow when the embedded store is used: PUT the bytes to the `upload_url` from createDemoSessionUpload, with the same Content-Type, uncompressed. " +
			"Each URL takes one upload: once a PUT has succeeded, the URL refuses further PUTs with 409 `conflict` (a PUT that failed may be retried). " +
			"Refused after expiry, with another Content-Type, a bad signature or over the size. Counts against the `uploads` budget.",
		tags: ["Demo"],
		handler: "uploadPut",
		params: [
			{ name: "token", in: "path", required: true, description: "Opaque upload token (part of upload_url).", schema: { type: "string" } },
			{ name: "ct", in: "query", required: true, description: "Signed content type.", schema: { type: "string" } },
			{ name: "max", in: "query", required: true, description: "Signed size limit in bytes.", schema: { type: "integer" } },
			{ name: "expires", in: "query", required: true, description: "Signed expiry (Unix seconds).", schema: { type: "integer" } },
			{ name: "sig", in: "query", required: true, description: "HMAC signature.", schema: { type: "string" } }
		],
		body: { kind: "raw", contentTypes: ["application/pdf", "application/vnd.openxmlformats-officedocument.wordprocessingml.document", "application/msword", "text/plain", "text/markdown"], description: "The file bytes." },
		responses: {
			"200": { description: "Stored." },
			"403": { description: "`forbidden`: bad signature, expired URL or other Content-Type.", content: { "application/json": ref("Error") } },
			"409": { description: "`conflict`: this URL was already used for a successful upload; request a new one.", content: { "application/json": ref("Error") } },
			"413": { description: "`payload_too_large`: over the signed size.", content: { "application/json": ref("Error") } },
			"415": { description: "`unsupported_media_type`: the body carries a Content-Encoding; send the file uncompressed.", content: { "application/json": ref("Error") } },
			"429": { description: "`rate_limited`: the `uploads` budget is exhausted; see Retry-After.", content: { "application/json": ref("Error") } }
		},
		rateLimit: "uploads",
		documented: true
	}
];
