/**
 * Text extraction from real files: PDF, DOCX and DOC made by LibreOffice, a scan-like PDF without a
 * text layer, hand-written text and Markdown (test/fixtures/README.md says how each was made), and
 * hostile inputs: a malformed PDF, ZIP bombs built at run time, mislabelled files.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { extractText } from "../../lib/extract/extract-text";
import { extractionFailureReason } from "../../lib/failures";
import { makeDocxBomb, makeLyingDocxBomb, writeZip } from "../fixtures/make-bomb";

const fixture = (name: string) => fs.readFileSync(path.join(__dirname, "..", "fixtures", name));

const PDF = "application/pdf";
const DOCX = "application/vnd.openxmlformats-officedocument.wordprocessingml.document";
const DOC = "application/msword";

async function failure(promise: Promise<unknown>): Promise<{ reason: string | undefined; type: string }> {
	const err = await promise.then(
		() => {
			throw new Error("expected extraction to fail");
		},
		(e: { type: string }) => e
	);
	return { reason: extractionFailureReason(err), type: err.type };
}

describe("documents made by LibreOffice", () => {
	it.each([
		["facts.pdf", PDF],
		["facts.docx", DOCX],
		["facts.doc", DOC]
	])("%s yields its facts", async (name, type) => {
		const result = await extractText(fixture(name), type, name);
		expect(result.text).toContain("The Zephyr-9 kettle warranty lasts 37 months");
		expect(result.text).toContain("help desk in Tromsø");
		expect(result.text).toContain("exactly 4,812 units");
		expect(result.text.startsWith("Zephyr Appliances Customer Handbook")).toBe(true);
	});

	it.each([
		["facts.pdf", PDF],
		["facts.docx", DOCX],
		["facts.doc", DOC]
	])("%s keeps the paragraphs of the text it was made from", async (name, type) => {
		// A PDF has lines, not paragraphs: its paragraphs are read from the space between lines (a
		// wrapped sentence stays one paragraph over two lines).
		const paragraphs = (text: string) => text.split("\n\n").map(paragraph => paragraph.replace(/\s+/g, " ").trim());
		const source = fs.readFileSync(path.join(__dirname, "..", "fixtures", "source", "facts.txt"), "utf8");
		expect(paragraphs((await extractText(fixture(name), type, name)).text)).toEqual(paragraphs(source));
	});

	it("reports the page count of a PDF", async () => {
		expect((await extractText(fixture("facts.pdf"), PDF)).pages).toBe(1);
	});

	it("accepts a content type with parameters", async () => {
		expect((await extractText(fixture("facts.pdf"), "Application/PDF; qs=0.9")).text).toContain("37 months");
	});
});

describe("plain text and Markdown", () => {
	it("decodes UTF-8 text, drops the BOM and normalises line breaks", async () => {
		const { text } = await extractText(fixture("notes.txt"), "text/plain; charset=utf-8", "notes.txt");
		expect(text.startsWith("Zephyr service notes\n\nThe Zephyr-9 kettle warranty lasts 37 months.")).toBe(true);
		expect(text).toContain("14 euros in Tromsø");
		expect(text).not.toMatch(/[\r\ufeff]/);
	});

	it("reads legacy single-byte text that is not valid UTF-8", async () => {
		expect((await extractText(Buffer.from("Caf\xe9 cr\xe8me br\xfbl\xe9e", "latin1"), "text/plain")).text).toBe("Café crème brûlée");
	});

	it("drops Markdown front matter and takes the title from it", async () => {
		const result = await extractText(fixture("guide.md"), "text/markdown", "guide.md");
		expect(result.title).toBe("Zephyr-9 quick guide");
		expect(result.text).not.toContain("FRONTMATTER-ONLY-7731");
		expect(result.text).not.toContain("secret_internal_code");
		expect(result.text.startsWith("# Zephyr-9 quick guide")).toBe(true);
		expect(result.text).toContain("The **Zephyr-9** kettle warranty lasts 37 months.");
	});

	it("keeps a Markdown file without front matter whole, titled by its first heading", async () => {
		const result = await extractText(Buffer.from("Intro line\n\n# Heading one\n\n---\n\nAfter a rule."), "text/markdown");
		expect(result).toEqual({ text: "Intro line\n\n# Heading one\n\n---\n\nAfter a rule.", title: "Heading one" });
	});
});

describe("files without text", () => {
	it("a scan-like PDF without a text layer gives empty text, not an error", async () => {
		const result = await extractText(fixture("scan-no-text.pdf"), PDF, "scan.pdf");
		expect(result.text).toBe("");
		expect(result.pages).toBe(1);
	});

	it("an empty file gives empty text", async () => {
		expect(await extractText(Buffer.alloc(0), DOCX)).toEqual({ text: "" });
	});
});

describe("hostile and broken files fail that file only", () => {
	it("a malformed PDF is unreadable, and extraction keeps working afterwards", async () => {
		expect(await failure(extractText(fixture("malformed.pdf"), PDF, "malformed.pdf"))).toEqual({ reason: "unreadable", type: "validation_failed" });
		expect((await extractText(fixture("facts.pdf"), PDF)).text).toContain("37 months");
	});

	it("a DOCX that inflates to 200 MB is refused before parsing", async () => {
		const bomb = await makeDocxBomb(200_000_000);
		expect(bomb.length).toBeLessThan(300_000);
		const started = Date.now();
		expect(await failure(extractText(bomb, DOCX, "bomb.docx"))).toEqual({ reason: "bomb", type: "validation_failed" });
		// Refused from the ZIP directory alone: nothing was inflated.
		expect(Date.now() - started).toBeLessThan(1000);
	});

	it("a DOCX whose declared sizes are impossible for its data is refused as a bomb", async () => {
		const liar = await makeLyingDocxBomb(50_000_000, 1000);
		expect(await failure(extractText(liar, DOCX))).toEqual({ reason: "bomb", type: "validation_failed" });
	});

	it("a DOCX lying plausibly about its sizes fails inside the parser worker, not the process", async () => {
		// Declared size twice the compressed size passes the directory check; the decompressor's own size
		// check stops it while inflating.
		const liar = await makeLyingDocxBomb(50_000_000, compressed => compressed * 2);
		const result = await failure(extractText(liar, DOCX));
		expect(["unreadable", "bomb"]).toContain(result.reason);
		expect((await extractText(fixture("facts.docx"), DOCX)).text).toContain("37 months");
	});

	it("a parser that overruns the time limit is stopped", async () => {
		// Workers of a heap size of their own, which have never loaded the PDF parser: loading it is part
		// of the timed task. A warm worker can read this one-page PDF within the 1 ms, which made this
		// test a race.
		expect(await failure(extractText(fixture("facts.pdf"), PDF, "facts.pdf", { timeoutMs: 1, heapMb: 500 }))).toEqual({
			reason: "timeout",
			type: "validation_failed"
		});
	});

	it("refuses files over the size limit without reading them", async () => {
		expect(await failure(extractText(Buffer.alloc(10_000_001, 0x61), "text/plain"))).toEqual({ reason: "too_large", type: "file_size" });
	});

	it("refuses types outside the five accepted ones", async () => {
		expect(await failure(extractText(fixture("facts.pdf"), "image/png"))).toEqual({ reason: "unsupported_type", type: "file_type" });
	});

	it.each([
		["a PDF declared as DOCX", "facts.pdf", DOCX],
		["a DOCX declared as PDF", "facts.docx", PDF],
		["a DOC declared as DOCX", "facts.doc", DOCX],
		["a DOCX declared as DOC", "facts.docx", DOC],
		["a PDF declared as plain text", "facts.pdf", "text/plain"],
		["a DOC declared as Markdown", "facts.doc", "text/markdown"]
	])("refuses %s (magic bytes do not match)", async (_label, name, type) => {
		expect(await failure(extractText(fixture(name), type))).toEqual({ reason: "type_mismatch", type: "file_type" });
	});

	it("refuses a ZIP that is not a Word document when declared as DOCX", async () => {
		const zip = writeZip([{ name: "xl/workbook.xml", compressed: Buffer.from([0x03, 0x00]), crc: 0, declaredSize: 0 }]);
		expect(await failure(extractText(zip, DOCX))).toEqual({ reason: "type_mismatch", type: "file_type" });
	});

	it("refuses a truncated DOCX as unreadable", async () => {
		const docx = fixture("facts.docx");
		expect(await failure(extractText(docx.subarray(0, docx.length - 200), DOCX))).toEqual({ reason: "unreadable", type: "validation_failed" });
	});
});
