/**
 * Front-end files served as they are (no build step): the widget script in `assets/`. Each is read
 * from disk once per gateway and tagged with a strong ETag of its bytes.
 */
import * as fs from "node:fs/promises";
import * as path from "node:path";
import { appError } from "../errors";
import { strongEtag } from "../http/etag";

export interface StaticAsset {
	body: Buffer;
	contentType: string;
	etag: string;
}

const ASSETS_DIR = path.resolve(__dirname, "../../assets");

/** URL path → file in `assets/` and its media type. Nothing else is served. */
const ASSETS: Readonly<Record<string, { file: string; contentType: string }>> = {
	"/widget.js": { file: "widget.js", contentType: "text/javascript; charset=utf-8" }
};

export async function loadAsset(urlPath: string): Promise<StaticAsset> {
	const entry = ASSETS[urlPath];
	if (!entry) throw appError("not_found", `Nothing lives at ${urlPath}.`);
	const body = await fs.readFile(path.join(ASSETS_DIR, entry.file));
	return { body, contentType: entry.contentType, etag: strongEtag(body) };
}
