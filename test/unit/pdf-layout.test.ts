import { documentText, pageText, PlacedText } from "../../lib/extract/pdf-layout";

/** A line of one piece at `y` (points from the top), 10 points high, ending its line. */
const line = (str: string, y: number, x = 72): PlacedText => ({ str, x, y, width: str.length * 5, height: 10, hasEOL: true });

describe("a PDF page's text", () => {
	test("lines a line's pitch apart are one paragraph; more space above a line starts another", () => {
		const items = [line("Returns are accepted within 30 days of delivery when the", 100), line("item is unused.", 112), line("Refunds reach your card within five days.", 136)];
		expect(pageText(items)).toBe("Returns are accepted within 30 days of delivery when the\nitem is unused.\n\nRefunds reach your card within five days.");
	});

	test("the pitch is the page's own: double-spaced wrapped lines stay together", () => {
		const items = [line("First paragraph, whose sentence", 100), line("wraps onto a second line.", 124), line("Second paragraph.", 172)];
		expect(pageText(items)).toBe("First paragraph, whose sentence\nwraps onto a second line.\n\nSecond paragraph.");
	});

	test("pieces on one baseline are one line, a superscript stays on it, and distant pieces are cells", () => {
		const pieces: PlacedText[] = [
			{ str: "Water boils at 100 °C", x: 72, y: 100, width: 110, height: 10, hasEOL: false },
			{ str: "1", x: 182, y: 96, width: 4, height: 6, hasEOL: false },
			{ str: " at sea level.", x: 186, y: 100, width: 60, height: 10, hasEOL: true },
			{ str: "Plan", x: 72, y: 112, width: 20, height: 10, hasEOL: false },
			{ str: "Price", x: 200, y: 112, width: 25, height: 10, hasEOL: true }
		];
		expect(pageText(pieces)).toBe("Water boils at 100 °C1 at sea level.\nPlan\tPrice");
	});

	test("a line further up the page than the one before (the next column) starts a paragraph", () => {
		const items = [line("Left column, first line", 100), line("and its second line.", 112), line("Right column text.", 100, 320)];
		expect(pageText(items)).toBe("Left column, first line\nand its second line.\n\nRight column text.");
	});

	test("an empty page, and a page of one line", () => {
		expect(pageText([])).toBe("");
		expect(pageText([{ str: " ", x: 0, y: 0, width: 1, height: 0, hasEOL: true }, line("Only line.", 50)])).toBe("Only line.");
	});
});

describe("a PDF document's text", () => {
	/** A page: a running header, its lines a pitch apart, and its number at the foot. */
	const page = (number: number, lines: string[]): PlacedText[] => [
		line("Zephyr Customer Handbook", 40),
		...lines.map((text, i) => line(text, 100 + 12 * i)),
		line(`Page ${number} of 3`, 780)
	];

	test("drops the header and footer that repeat atop and at the foot of most pages, keeping the first page's title", () => {
		const text = documentText([
			page(1, ["Warranties last 37 months from", "the date of purchase."]),
			page(2, ["Descale every 11 weeks with", "citric acid."]),
			page(3, ["The help desk is in Tromsø and", "answers on weekdays."])
		]);
		expect(text).toBe(
			"Zephyr Customer Handbook\n\nWarranties last 37 months from\nthe date of purchase.\n\nDescale every 11 weeks with\ncitric acid.\n\nThe help desk is in Tromsø and\nanswers on weekdays."
		);
	});

	test("keeps a paragraph whole across a page break when it runs on to the next page", () => {
		const text = documentText([
			page(1, ["Warranties last 37 months.", "Returns are accepted within 30 days of delivery when the"]),
			page(2, ["item is unused and in its", "original box."]),
			page(3, ["Shipping is free above", "50 euros."])
		]);
		expect(text).toContain("within 30 days of delivery when the\nitem is unused and in its\noriginal box.\n\nShipping is free above");
	});

	test("a document of fewer than three pages keeps every line: two pages say too little about what repeats", () => {
		const text = documentText([page(1, ["Warranties last 37 months from", "the date of purchase."]), page(2, ["Descale every 11 weeks with", "citric acid."])]);
		expect(text.match(/Zephyr Customer Handbook/g)).toHaveLength(2);
		expect(text).toContain("Page 2 of 3");
	});
});
