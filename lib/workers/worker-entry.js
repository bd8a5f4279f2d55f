// @ts-check
/**
 * The inside of a worker of worker-pool.ts: loads the task module named in workerData, says it is
 * ready, then runs one task per message and answers `{ id, ok, result }` or `{ id, ok: false, error }`.
 *
 * Plain CommonJS on purpose: a worker thread loads its file with Node's own loader, outside the
 * TypeScript hooks of tsx and ts-jest, so this file must run as it is. A TypeScript task module is
 * loaded through tsx's require hook, registered here for this worker only.
 */
"use strict";
const { parentPort, workerData } = require("node:worker_threads");

if (!parentPort) throw new Error("worker-entry.js runs only as a worker thread");
const port = parentPort;

/** @type {string} */
const modulePath = workerData.module;
if (modulePath.endsWith(".ts")) require("tsx/cjs/api").register();
/** @type {Record<string, (input: unknown) => unknown>} */
const tasks = require(modulePath);

/**
 * The parts of an error that cross back to the pool: name, message and a cloneable `data`.
 * @param {unknown} err
 */
function describe(err) {
	const error = err instanceof Error ? err : new Error(String(err));
	/** @type {{ name: string; message: string; data?: unknown }} */
	const out = { name: error.name, message: error.message };
	const data = /** @type {{ data?: unknown }} */ (error).data;
	if (data !== undefined) {
		try {
			out.data = structuredClone(data);
		} catch {
			// Data that cannot be cloned is left behind; name and message still say what happened.
		}
	}
	return out;
}

/** @param {{ id: number; task: string; input: unknown }} message */
async function run(message) {
	// While a task runs, the port alone does not keep this worker alive: a task whose promise can
	// never settle lets the worker end, which the pool reports, instead of waiting for the timeout.
	port.unref();
	try {
		const task = tasks[message.task];
		if (typeof task !== "function") throw new Error(`No task named ${message.task}.`);
		const result = await task(message.input);
		port.postMessage({ id: message.id, ok: true, result });
	} catch (err) {
		port.postMessage({ id: message.id, ok: false, error: describe(err) });
	} finally {
		port.ref();
	}
}

port.on("message", message => void run(message));
port.postMessage({ ready: true });
