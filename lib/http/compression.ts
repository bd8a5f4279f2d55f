/**
 * Content coding of responses: whether the client takes gzip, and which bodies are worth it.
 * Only representations with a strong ETag are compressed (public documents, the same bytes for
 * everyone): a page that mixes a secret with text an attacker can echo into it must not be
 * compressed, or its compressed length leaks the secret (BREACH).
 */

/** Bodies shorter than this are sent as they are: the gzip framing would eat most of the gain. */
export const COMPRESS_MIN_BYTES = 1024;

/** Text types, which compress well; images, archives and PDFs are compressed already. */
export function compressibleType(contentType: string | undefined): boolean {
	if (contentType === undefined) return false;
	const type = contentType.split(";")[0].trim().toLowerCase();
	return (
		type.startsWith("text/") ||
		type === "application/json" ||
		type.endsWith("+json") ||
		type === "application/yaml" ||
		type === "application/xml" ||
		type.endsWith("+xml") ||
		type === "application/javascript" ||
		type === "image/svg+xml"
	);
}

/**
 * Whether an Accept-Encoding value accepts gzip (RFC 9110 §12.5.3): `gzip`, `x-gzip` or `*` with a
 * weight above zero. Parsed by splitting, no regular expression.
 */
export function acceptsGzip(acceptEncoding: string | undefined): boolean {
	if (acceptEncoding === undefined) return false;
	let wildcard = false;
	for (const entry of acceptEncoding.split(",")) {
		const [coding, ...parameters] = entry.split(";");
		const name = coding.trim().toLowerCase();
		if (name !== "gzip" && name !== "x-gzip" && name !== "*") continue;
		let weight = 1;
		for (const parameter of parameters) {
			const [key, value] = parameter.split("=");
			if (key.trim().toLowerCase() === "q") weight = Number(value?.trim());
		}
		const accepted = Number.isFinite(weight) && weight > 0;
		// An explicit gzip entry decides; `*` applies only when gzip is not named.
		if (name !== "*") return accepted;
		wildcard = accepted;
	}
	return wildcard;
}
