// Top self-time functions of a .cpuprofile: `node bench/gateway/summarise-profile.mjs file [top]`.
import { readFileSync } from "node:fs";

const [file, topArg] = process.argv.slice(2);
const profile = JSON.parse(readFileSync(file, "utf8"));
const byId = new Map(profile.nodes.map(node => [node.id, node]));
const selfMicros = new Map();
const deltas = profile.timeDeltas;
for (let i = 0; i < profile.samples.length; i++) {
	const id = profile.samples[i];
	selfMicros.set(id, (selfMicros.get(id) ?? 0) + (deltas[i] ?? 0));
}
const total = [...selfMicros.values()].reduce((a, b) => a + b, 0);
const byFunction = new Map();
for (const [id, micros] of selfMicros) {
	const { callFrame } = byId.get(id);
	const url = callFrame.url ?? "";
	const cut = url.lastIndexOf("node_modules/");
	const where = cut >= 0 ? url.slice(cut + "node_modules/".length) : url.replace(/^.*\/wt-[^/]+\//, "").replace(/^file:\/\//, "");
	const key = `${callFrame.functionName || "(anonymous)"}  ${where}:${callFrame.lineNumber + 1}`;
	byFunction.set(key, (byFunction.get(key) ?? 0) + micros);
}
const rows = [...byFunction].sort((a, b) => b[1] - a[1]).slice(0, Number(topArg ?? 25));
console.log(`total ${(total / 1e6).toFixed(1)} s sampled`);
for (const [key, micros] of rows) console.log(`${((100 * micros) / total).toFixed(1).padStart(5)}%  ${key}`);

// The same self time grouped by where the code lives: a package, a project folder, or Node itself.
const byPlace = new Map();
for (const [id, micros] of selfMicros) {
	const url = byId.get(id).callFrame.url ?? "";
	const cut = url.lastIndexOf("node_modules/");
	let place;
	if (cut >= 0) {
		const rest = url.slice(cut + "node_modules/".length).split("/");
		place = rest[0].startsWith("@") ? `${rest[0]}/${rest[1]}` : rest[0];
	} else if (url.startsWith("node:")) place = "node (JS)";
	else if (url === "") place = byId.get(id).callFrame.functionName.startsWith("(") ? byId.get(id).callFrame.functionName : "native";
	else place = url.replace(/^file:\/\//, "").replace(/^.*\/wt-[^/]+\//, "").split("/").slice(0, 2).join("/");
	byPlace.set(place, (byPlace.get(place) ?? 0) + micros);
}
console.log("\nby place:");
for (const [place, micros] of [...byPlace].sort((a, b) => b[1] - a[1]).slice(0, 15)) console.log(`${((100 * micros) / total).toFixed(1).padStart(5)}%  ${place}`);
