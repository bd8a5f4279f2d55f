/**
 * Per-account log-in throttling over real HTTP: wrong passwords for one account, each from another
 * client address (TRUST_PROXY=1 and X-Forwarded-For, so the per-address `accounts` budget never
 * binds), are refused once the account's budget is spent — the owner's correct password too — and
 * the owner logs in again once the window has passed. The counters are also shown to be shared
 * through a real redis-server, as several accounts replicas share them.
 */
import Redis from "ioredis";
import { createLoginThrottle } from "../../lib/accounts/login-throttle";
import createAccountsService from "../../services/accounts.service";
import { startApp, TestApp } from "../helpers/app";
import { nextIp, rawRequest, RawReply, signUp } from "../helpers/mcp-http";
import { eventually } from "../helpers/processes";
import { RunningServer, startRedis } from "../helpers/servers";

/** A small budget and a short window, so the window can pass inside the test. */
const POLICY = { attempts: 3, windowSeconds: 6 };
const PASSWORD = "the owner's long password";

let app: TestApp;

beforeAll(async () => {
	app = await startApp({
		env: { TRUST_PROXY: "1", SERVICES: "gateway,chatbots,accounts" },
		factories: { accounts: config => createAccountsService(config, { loginPolicy: POLICY }) }
	});
});
afterAll(() => app?.stop());

const logIn = (email: string, password: string): Promise<RawReply> =>
	rawRequest(`${app.baseUrl}/account/login`, {
		method: "POST",
		headers: { "Content-Type": "application/json", "X-Forwarded-For": nextIp() },
		body: JSON.stringify({ email, password })
	});

/** A browser's log-in form, with its CSRF cookie and token, from a fresh address. */
async function logInWithForm(email: string, password: string): Promise<RawReply> {
	const ip = nextIp();
	const form = await rawRequest(`${app.baseUrl}/account/login`, { headers: { Accept: "text/html", "X-Forwarded-For": ip } });
	const cookie = (form.headers.getSetCookie().find(c => c.startsWith("cb_csrf=")) as string).split(";")[0];
	const token = (/name="csrf_token" value="([^"]+)"/.exec(form.text) as RegExpExecArray)[1];
	return rawRequest(`${app.baseUrl}/account/login`, {
		method: "POST",
		redirect: "manual",
		headers: { Accept: "text/html", "Content-Type": "application/x-www-form-urlencoded", Cookie: cookie, "X-Forwarded-For": ip },
		body: new URLSearchParams({ email, password, csrf_token: token }).toString()
	});
}

it("refuses an account's log-ins from every address once its budget is spent, until the window passes", async () => {
	await signUp(app.baseUrl, "owner@throttle.example", PASSWORD);
	await signUp(app.baseUrl, "bystander@throttle.example", PASSWORD);

	for (let i = 0; i < POLICY.attempts; i++) expect((await logIn("owner@throttle.example", "a wrong password")).status).toBe(401);
	const refused = await logIn("OWNER@throttle.example", "a wrong password");
	expect(refused.status).toBe(429);
	expect(refused.body).toMatchObject({ ok: false, code: "rate_limited" });
	expect((refused.body as { message: string }).message).toMatch(/^Too many log-in attempts for this account\./);
	const retryAfter = Number(refused.headers.get("retry-after"));
	expect(retryAfter).toBeGreaterThanOrEqual(1);
	expect(retryAfter).toBeLessThanOrEqual(POLICY.windowSeconds);

	// While it lasts, the right password is refused too (before any password check), and a browser
	// sees the log-in form again with the reason.
	expect((await logIn("owner@throttle.example", PASSWORD)).status).toBe(429);
	const page = await logInWithForm("owner@throttle.example", PASSWORD);
	expect(page.status).toBe(429);
	expect(page.headers.get("content-type")).toMatch(/^text\/html/);
	expect(page.text).toContain("Too many log-in attempts for this account.");

	// Other accounts are not affected.
	expect((await logIn("bystander@throttle.example", PASSWORD)).status).toBe(200);

	// After the window the owner logs in; a success starts the count again.
	await eventually(async () => ((await logIn("owner@throttle.example", PASSWORD)).status === 200 ? true : undefined), 20_000, "the owner's log-in after the window");
	for (let i = 0; i < POLICY.attempts; i++) expect((await logIn("owner@throttle.example", "a wrong password")).status).toBe(401);
	expect((await logIn("owner@throttle.example", "a wrong password")).status).toBe(429);
});

it("counts unknown addresses the same way, so the answer tells nobody which accounts exist", async () => {
	const statuses: number[] = [];
	for (let i = 0; i <= POLICY.attempts; i++) statuses.push((await logIn("nobody@throttle.example", "a wrong password")).status);
	expect(statuses).toEqual([401, 401, 401, 429]);
});

describe("across replicas", () => {
	let redis: RunningServer;
	const clients: Redis[] = [];
	beforeAll(async () => {
		redis = await startRedis();
	});
	afterAll(async () => {
		for (const client of clients) client.disconnect();
		await redis?.stop();
	});

	it("shares one budget through Redis: simultaneous guesses on two replicas get exactly the budget", async () => {
		const replica = () => {
			const client = new Redis(redis.url, { maxRetriesPerRequest: 1 });
			clients.push(client);
			return createLoginThrottle({ attempts: 10, windowSeconds: 60 }, client);
		};
		const [first, second] = [replica(), replica()];
		const attempts = await Promise.all(Array.from({ length: 30 }, (_, i) => (i % 2 ? first : second).attempt("shared@throttle.example")));
		expect(attempts.filter(a => a.allowed)).toHaveLength(10);
		// A success on one replica clears the count for both.
		await first.succeeded("shared@throttle.example");
		expect((await second.attempt("shared@throttle.example")).allowed).toBe(true);
		expect((await first.attempt("other@throttle.example")).allowed).toBe(true);
	});
});
