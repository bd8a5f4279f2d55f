/**
 * The gateway's response class: `end()` is carried out at the end of the event loop's turn, with
 * every other response finished in that turn, instead of at once.
 *
 * Why: each response written to a socket wakes the client that waits on it. When the responses of
 * one turn leave one by one, with the work of the next request between them, a client that waits
 * for several of them is woken again and again, and every wake-up costs the writing process more
 * than its own work for a small request (profiled under 16 connections: most of `writev`'s time was
 * the reader's wake-up, and throughput doubled once the writes of a turn left back to back). A
 * single request gains nothing and loses nothing: its turn ends right after its handler.
 *
 * While an end is waiting, the response reports `headersSent` and `writableEnded` as true, so an
 * error raised after a handler finished is not rendered into the same response.
 */
import { IncomingMessage, ServerResponse } from "node:http";

type EndArgs = Parameters<ServerResponse["end"]>;

const endWaiting = Symbol("endWaiting");
const realEnd = ServerResponse.prototype.end as (this: ServerResponse, ...args: unknown[]) => ServerResponse;
function inheritedGetter(name: string): (this: ServerResponse) => boolean {
	const get = Object.getOwnPropertyDescriptor(Object.getPrototypeOf(ServerResponse.prototype), name)?.get;
	if (!get) throw new Error(`node:http's OutgoingMessage has no ${name} getter`);
	return get as (this: ServerResponse) => boolean;
}
const headersSentOf = inheritedGetter("headersSent");
const writableEndedOf = inheritedGetter("writableEnded");

let waiting: TurnBatchedResponse[] = [];
let waitingArgs: EndArgs[] = [];

function carryOut(res: TurnBatchedResponse, args: EndArgs): void {
	res[endWaiting] = false;
	try {
		realEnd.apply(res, args);
	} catch (err) {
		// A chunk Node refuses (a programming error) must not take the process down: the
		// connection is cut, as when a response fails after its head went out.
		res.destroy(err as Error);
	}
}

function endWaitingResponses(): void {
	const responses = waiting;
	const args = waitingArgs;
	waiting = [];
	waitingArgs = [];
	for (let i = 0; i < responses.length; i++) if (responses[i][endWaiting]) carryOut(responses[i], args[i]);
}

/**
 * Carries out a waiting end now, for code that is about to close the connection (a request whose
 * body broke off after its answer was decided): the answer still goes out first.
 */
export function endNowIfWaiting(res: unknown): void {
	if (!(res instanceof TurnBatchedResponse) || !res[endWaiting]) return;
	const index = waiting.indexOf(res);
	carryOut(res, waitingArgs[index]);
}

export class TurnBatchedResponse<Request extends IncomingMessage = IncomingMessage> extends ServerResponse<Request> {
	[endWaiting] = false;
}

Object.defineProperties(TurnBatchedResponse.prototype, {
	end: {
		value: function end(this: TurnBatchedResponse, ...args: EndArgs): TurnBatchedResponse {
			if (this[endWaiting]) return this;
			this[endWaiting] = true;
			waiting.push(this);
			waitingArgs.push(args);
			if (waiting.length === 1) setImmediate(endWaitingResponses);
			return this;
		},
		writable: true,
		configurable: true
	},
	headersSent: {
		get(this: TurnBatchedResponse) {
			return this[endWaiting] || headersSentOf.call(this);
		},
		configurable: true
	},
	writableEnded: {
		get(this: TurnBatchedResponse) {
			return this[endWaiting] || writableEndedOf.call(this);
		},
		configurable: true
	}
});
