import * as fs from "node:fs";
import * as net from "node:net";

/** Test ports are drawn from here up to the kernel's ephemeral range. */
const LOWEST_TEST_PORT = 10_000;
const ATTEMPTS = 50;

/** Lowest port the kernel hands out as the local end of outgoing connections (Linux; 32768 elsewhere by default). */
function ephemeralFloor(): number {
	try {
		const low = Number(fs.readFileSync("/proc/sys/net/ipv4/ip_local_port_range", "utf8").trim().split(/\s+/)[0]);
		if (Number.isInteger(low) && low > 0) return low;
	} catch {
		// Not Linux: assume the IANA dynamic range's usual start.
	}
	return 32_768;
}

/** Read once: the range does not change while the tests run. */
const EPHEMERAL_FLOOR = ephemeralFloor();

/** Binds and releases the port (0: any), resolving with the port bound, or undefined when it was taken. */
function tryPort(port: number): Promise<number | undefined> {
	return new Promise(resolve => {
		const server = net.createServer();
		server.unref();
		server.once("error", () => resolve(undefined));
		server.listen(port, "127.0.0.1", () => {
			const { port: bound } = server.address() as net.AddressInfo;
			server.close(() => resolve(bound));
		});
	});
}

/**
 * A TCP port that was free a moment ago on 127.0.0.1, chosen at random below the kernel's ephemeral
 * range. A port from that range (what listening on port 0 gives) can be taken as the local end of
 * any outgoing connection in the meantime (the test's own HTTP clients, a service's links to NATS
 * and Redis), and the server meant for it then fails with EADDRINUSE; a port below the range never
 * is. At random, so parallel test files seldom draw the same one.
 */
export async function freePort(): Promise<number> {
	if (EPHEMERAL_FLOOR - LOWEST_TEST_PORT >= 1_000) {
		for (let attempt = 0; attempt < ATTEMPTS; attempt++) {
			const port = await tryPort(LOWEST_TEST_PORT + Math.floor(Math.random() * (EPHEMERAL_FLOOR - LOWEST_TEST_PORT)));
			if (port !== undefined) return port;
		}
	}
	const port = await tryPort(0);
	if (port === undefined) throw new Error("No free TCP port on 127.0.0.1");
	return port;
}

/** Resolves once something accepts TCP connections on the port, or rejects after `timeoutMs`. */
export async function waitForPort(port: number, timeoutMs = 10_000): Promise<void> {
	const deadline = Date.now() + timeoutMs;
	while (Date.now() < deadline) {
		const open = await new Promise<boolean>(resolve => {
			const socket = net.connect(port, "127.0.0.1");
			socket.once("connect", () => {
				socket.destroy();
				resolve(true);
			});
			socket.once("error", () => resolve(false));
		});
		if (open) return;
		await new Promise(r => setTimeout(r, 50));
	}
	throw new Error(`Nothing listens on port ${port} after ${timeoutMs} ms`);
}
