/**
 * Every route of a chatbot's dashboard (`/account/chatbots/{id}/…`, read from the route table, so
 * routes added later are covered without touching this file) refuses another account: the
 * stranger's session cookie on the owner's chatbot id answers 404 `not_found`, exactly as an id
 * that never existed, and nothing changes. Without a cookie it is 401. The owner's own GETs answer.
 */
import type { Chatbot } from "../../lib/chatbots/model";
import { ROUTES } from "../../lib/http/routes";
import type { JsonSchema, RouteDef } from "../../lib/http/routes/types";
import { startApp, TestApp } from "../helpers/app";
import { newOwner, Owner, trainedChatbot } from "../helpers/channel-app";
import { rawRequest } from "../helpers/mcp-http";

let app: TestApp;
let owner: Owner;
let stranger: Owner;
let chatbot: Chatbot;

beforeAll(async () => {
	app = await startApp({ env: { SERVICES: "gateway,chatbots,accounts,trainer,vectors,chat,channels,storage" } });
	owner = await newOwner(app.baseUrl);
	stranger = await newOwner(app.baseUrl);
	chatbot = await trainedChatbot(app.broker, owner.accountId, { name: "Owner's own" });
}, 90_000);

afterAll(async () => {
	await app?.stop();
});

const chatbotRoutes = ROUTES.filter(route => route.path.startsWith("/account/chatbots/{id}"));

/** A value that passes a JSON Schema's type, so the request reaches the ownership check. */
function sample(schema: JsonSchema | undefined): unknown {
	if (!schema) return "x";
	if ("const" in schema) return schema.const;
	if (Array.isArray(schema.enum)) return schema.enum[0];
	if (Array.isArray(schema.oneOf)) return sample(schema.oneOf.find(s => (s as JsonSchema).type !== "null") as JsonSchema);
	const type = Array.isArray(schema.type) ? schema.type.find(t => t !== "null") : schema.type;
	if (type === "integer" || type === "number") return typeof schema.minimum === "number" ? schema.minimum : 1;
	if (type === "boolean") return true;
	if (type === "array") return [sample(schema.items as JsonSchema)];
	if (type === "object") return bodyFor(schema);
	if (schema.format === "uri") return "https://example.com/";
	return "x";
}

function bodyFor(schema: JsonSchema): Record<string, unknown> {
	const properties = (schema.properties ?? {}) as Record<string, JsonSchema>;
	const required = (schema.required ?? []) as string[];
	return Object.fromEntries(required.filter(name => name !== "csrf_token").map(name => [name, sample(properties[name])]));
}

function request(route: RouteDef, id: string, cookie?: string) {
	const path = route.path.replace("{id}", encodeURIComponent(id)).replace(/\{(\w+)\}/g, "x");
	const headers: Record<string, string> = { Accept: "application/json", ...(cookie ? { Cookie: cookie } : {}) };
	if (route.method === "GET") return rawRequest(app.baseUrl + path, { headers });
	const body = route.body && route.body.kind !== "raw" ? bodyFor(route.body.schema) : {};
	return rawRequest(app.baseUrl + path, { method: route.method, headers: { ...headers, "Content-Type": "application/json" }, body: JSON.stringify(body) });
}

it("has dashboard routes to check", () => {
	expect(chatbotRoutes.map(r => r.operationId)).toEqual(expect.arrayContaining(["getChatbotDashboard", "trainChatbot", "deleteChatbot", "getChatbotChannels"]));
});

describe.each(chatbotRoutes.map(route => [`${route.method} ${route.path}`, route] as const))("%s", (_name, route) => {
	it("answers another account 404 not_found, like an id that does not exist", async () => {
		const theirs = await request(route, chatbot._id, stranger.cookie);
		expect({ status: theirs.status, code: (theirs.body as { code?: string }).code }).toEqual({ status: 404, code: "not_found" });
		const none = await request(route, "no-such-chatbot", owner.cookie);
		expect({ status: none.status, code: (none.body as { code?: string }).code }).toEqual({ status: 404, code: "not_found" });
		expect((theirs.body as { message: string }).message).toBe((none.body as { message: string }).message);
	});

	it("asks for a log-in without a session", async () => {
		expect((await request(route, chatbot._id)).status).toBe(401);
	});
});

it("left the owner's chatbot as it was", async () => {
	const { chatbot: now, sources } = await app.broker.call<{ chatbot: Chatbot; sources: unknown[] }, object>("chatbots.get", { id: chatbot._id });
	expect(now.name).toBe("Owner's own");
	expect(now.generation).toBe(chatbot.generation);
	expect(sources).toHaveLength(1);
	const overview = await rawRequest(`${app.baseUrl}/account/chatbots/${chatbot._id}`, { headers: { Accept: "application/json", Cookie: owner.cookie } });
	expect(overview.status).toBe(200);
	expect(overview.body).toMatchObject({ ok: true, underway: false, dashboard: { chatbot_id: chatbot._id, status: "ready", can_answer: true, sources: { url: { total: 1, ready: 1 } } } });
});
