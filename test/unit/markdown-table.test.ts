import { tableAt, tableCells } from "../../lib/text/markdown-table";

describe("Markdown pipe tables", () => {
	test("a row's cells are split at each unescaped '|', without the empty edges", () => {
		expect(tableCells("| Plan | Price |")).toEqual(["Plan", "Price"]);
		expect(tableCells("Plan | Price")).toEqual(["Plan", "Price"]);
		expect(tableCells("| a \\| b | c |")).toEqual(["a | b", "c"]);
		expect(tableCells("|  | empty first |")).toEqual(["", "empty first"]);
	});

	test("a table is a header row, a delimiter row with as many cells, and the rows holding a '|' after them", () => {
		const lines = ["Our plans:", "| Plan | Price |", "| :--- | ---: |", "| Free | 0 € |", "| Pro | 20 € |", "", "Prices include VAT."];
		expect(tableAt(lines, 0)).toBeUndefined();
		expect(tableAt(lines, 1)).toEqual({ header: ["Plan", "Price"], rows: [["Free", "0 €"], ["Pro", "20 €"]], end: 5 });
		// A line without a "|" ends it too.
		expect(tableAt(["a | b", "--- | ---", "1 | 2", "Then prose."], 0)).toEqual({ header: ["a", "b"], rows: [["1", "2"]], end: 3 });
	});

	test("no table without a delimiter row of the header's width", () => {
		expect(tableAt(["| a | b |", "| --- |"], 0)).toBeUndefined();
		expect(tableAt(["| a | b |", "| --- | x-- |"], 0)).toBeUndefined();
		expect(tableAt(["| a | b |", "| : | --- |"], 0)).toBeUndefined();
		expect(tableAt(["Yes | no", "Maybe | so"], 0)).toBeUndefined();
		expect(tableAt(["| a |"], 0)).toBeUndefined();
	});
});
