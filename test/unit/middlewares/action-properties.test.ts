/**
 * The action-property middlewares (`reply`, `auth`, `csrf`) in a real ServiceBroker with small fake
 * peers: an `accounts` that knows one session, a `probe` service whose actions only declare what
 * they need, and a `gateway` stand-in that calls them the way moleculer-web does and reads back the
 * meta they answer with. No HTTP, no database.
 */
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { ServiceBroker, ServiceSchema } from "moleculer";
import { csrfTokenForSession } from "../../../lib/accounts/csrf";
import { appError } from "../../../lib/errors";
import { jsonReply, noContentReply, pageReply, redirectReply } from "../../../lib/http/reply";
import { actionPropertyMiddlewares } from "../../../middlewares";
import { HttpContext, HttpMeta, optionalViewerOf, RequestHeaders, viewerOf } from "../../../middlewares/http-context";

const PUBLIC_URL = "http://bots.example.test";
const SECRET = "s".repeat(40);
const SESSION = "A".repeat(43);
const ACCOUNT = { id: "acc-1", email: "ann@example.com", plan: "free", created_at: "2026-01-01T00:00:00.000Z" };
const FORM_TOKEN = csrfTokenForSession(SECRET, SESSION);
const LOGGED_IN = { cookie: `cb_session=${SESSION}` };

let broker: ServiceBroker;
let dataDir: string;
const ran: string[] = [];

const fakeAccounts: ServiceSchema = {
	name: "accounts",
	actions: {
		resolveSession: {
			params: { token: "string" },
			handler: (ctx: HttpContext<{ token: string }>) => (ctx.params.token === SESSION ? { account: ACCOUNT } : null)
		}
	}
};

const probe: ServiceSchema = {
	name: "probe",
	actions: {
		beacon: { reply: "http", handler: () => (ran.push("beacon"), noContentReply()) },
		thing: {
			reply: "page",
			auth: "session",
			returnTo: "/things/{id}",
			params: { id: "string" },
			handler: (ctx: HttpContext<{ id: string }>) => pageReply(`<p>${viewerOf(ctx).account.email} sees ${ctx.params.id}</p>`)
		},
		missing: {
			reply: "page",
			handler: () => {
				throw appError("not_found", "No such thing.", { page: { title: "Gone", link: { href: "/account", label: "Your account" } } });
			}
		},
		broken: {
			reply: "page",
			handler: () => {
				throw appError("unavailable", "The back end is down.");
			}
		},
		rename: {
			reply: "form",
			auth: "session",
			csrf: true,
			params: { csrf_token: "string|optional", name: "string" },
			handler: (ctx: HttpContext<{ name: string }>) => {
				ran.push(`rename:${ctx.params.name}`);
				return jsonReply({ ok: true, by: viewerOf(ctx).account.id });
			}
		},
		leave: {
			reply: "form",
			auth: "optional",
			csrf: "session",
			params: { csrf_token: "string|optional" },
			handler: (ctx: HttpContext) => (ran.push(`leave:${optionalViewerOf(ctx)?.account.id ?? "nobody"}`), redirectReply("/"))
		}
	}
};

/** Calls an action as the gateway does (request headers in meta) and returns what it would send. */
const gateway: ServiceSchema = {
	name: "gateway",
	actions: {
		send: {
			params: { action: "string", params: "object", headers: "object" },
			async handler(ctx: HttpContext<{ action: string; params: Record<string, unknown>; headers: RequestHeaders }>) {
				ctx.meta.headers = ctx.params.headers;
				const body = await ctx.call(ctx.params.action, ctx.params.params);
				const { $statusCode, $location, $responseType, $responseHeaders } = ctx.meta;
				return { body, status: $statusCode, location: $location, type: $responseType, headers: $responseHeaders };
			}
		}
	}
};

interface Sent {
	body: unknown;
	status?: number;
	location?: string;
	type?: string;
	headers?: HttpMeta["$responseHeaders"];
}

const send = (action: string, params: Record<string, unknown>, headers: RequestHeaders = {}) => broker.call<Sent, object>("gateway.send", { action, params, headers });
const browserPost = { "content-type": "application/x-www-form-urlencoded", accept: "text/html" };
const programPost = { "content-type": "application/json" };

beforeAll(async () => {
	dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "cbb-mw-"));
	broker = new ServiceBroker({ logger: false, validator: true, middlewares: actionPropertyMiddlewares({ publicUrl: PUBLIC_URL, signingSecret: SECRET, dataDir }) });
	for (const schema of [fakeAccounts, probe, gateway]) broker.createService(schema);
	await broker.start();
});
afterAll(async () => {
	await broker.stop();
	fs.rmSync(dataDir, { recursive: true, force: true });
});
beforeEach(() => ran.splice(0));

describe("reply", () => {
	it("puts the handler's reply on the meta moleculer-web reads", async () => {
		expect(await send("probe.beacon", {})).toEqual({ body: null, status: 204 });
		expect(ran).toEqual(["beacon"]);
	});

	it("shows a refusal to a browser as a page with its status, title and link", async () => {
		const sent = await send("probe.missing", {}, { accept: "text/html" });
		expect(sent.status).toBe(404);
		expect(sent.type).toBe("text/html; charset=utf-8");
		expect(sent.body).toContain("<h1>Gone</h1>");
		expect(sent.body).toContain("No such thing.");
		expect(sent.body).toContain(`href="${PUBLIC_URL}/account"`);
		expect(sent.headers).toMatchObject({ "Referrer-Policy": "no-referrer", "X-Frame-Options": "DENY", "Cache-Control": "no-store" });
	});

	it("leaves server faults to the gateway's JSON Error body", async () => {
		await expect(send("probe.broken", {}, { accept: "text/html" })).rejects.toMatchObject({ type: "unavailable", code: 503 });
	});
});

describe("auth", () => {
	it("gives the handler the viewer of a live session", async () => {
		const sent = await send("probe.thing", { id: "42" }, LOGGED_IN);
		expect(sent.status).toBe(200);
		expect(sent.body).toBe("<p>ann@example.com sees 42</p>");
	});

	it("sends a browser without a session to log in, coming back to the declared page", async () => {
		const sent = await send("probe.thing", { id: "a/b" }, { cookie: `cb_session=${"B".repeat(43)}` });
		expect(sent).toMatchObject({ status: 303, location: `/account/login?next=${encodeURIComponent("/things/a%2Fb")}`, body: null });
	});

	it("refuses a program without a session with `unauthorized`", async () => {
		await expect(send("probe.rename", { name: "x" }, programPost)).rejects.toMatchObject({ type: "unauthorized", code: 401 });
		expect(ran).toEqual([]);
	});
});

describe("csrf", () => {
	const post = (headers: RequestHeaders, params: Record<string, unknown> = {}) => send("probe.rename", { name: "x", ...params }, { ...LOGGED_IN, ...headers });

	it("lets a form with its session's token from our origin through", async () => {
		expect((await post({ ...browserPost, origin: PUBLIC_URL }, { csrf_token: FORM_TOKEN })).body).toEqual({ ok: true, by: "acc-1" });
		expect((await post(browserPost, { csrf_token: FORM_TOKEN })).status).toBe(200);
		expect((await post(programPost)).status).toBe(200);
		expect(ran).toEqual(["rename:x", "rename:x", "rename:x"]);
	});

	it("refuses a foreign or opaque (`null`) Origin even with a valid token, and a form without its token", async () => {
		for (const origin of ["null", "http://bots.example.test:8080", "https://bots.example.test", "http://evil.example"]) {
			const page = await post({ ...browserPost, origin }, { csrf_token: FORM_TOKEN });
			expect(page.status).toBe(403);
			expect(page.body).toContain("This form expired or did not come from this site.");
			await expect(post({ ...programPost, origin })).rejects.toMatchObject({ type: "forbidden", code: 403 });
		}
		expect((await post(browserPost)).status).toBe(403);
		expect((await post(browserPost, { csrf_token: csrfTokenForSession(SECRET, "C".repeat(43)) })).status).toBe(403);
		expect((await post({ ...browserPost, "content-type": "text/plain" }, { csrf_token: "" })).status).toBe(403);
		expect(ran).toEqual([]);
	});

	it('checks `csrf: "session"` only when there is a session to act on', async () => {
		expect((await send("probe.leave", {}, browserPost)).status).toBe(303);
		expect((await send("probe.leave", {}, { ...browserPost, ...LOGGED_IN })).status).toBe(403);
		expect((await send("probe.leave", { csrf_token: FORM_TOKEN }, { ...browserPost, ...LOGGED_IN })).status).toBe(303);
		expect(ran).toEqual(["leave:nobody", "leave:acc-1"]);
	});

	it('refuses to start a service that declares `csrf: "session"` without `auth`', () => {
		const local = new ServiceBroker({ logger: false, middlewares: actionPropertyMiddlewares({ publicUrl: PUBLIC_URL, signingSecret: SECRET, dataDir }) });
		expect(() => local.createService({ name: "wrong", actions: { act: { csrf: "session", handler: () => null } } })).toThrow(/needs auth/);
	});
});
