/**
 * mcp: the tool server's JSON-RPC side. The gateway (services/gateway/mcp.ts) has already applied
 * the transport rules (size, media type, Origin, protocol-version header, API key, rate limits) and
 * hands over the raw body, the negotiated revision and the key's account; this service answers it
 * with lib/mcp/server.ts, running tools against the chatbots, crawler, trainer and accounts services.
 * Bodies without a `tools/call` need no service and are answered by the gateway itself.
 */
import type { Context, ServiceSchema, ServiceSettingSchema } from "moleculer";
import type { AppConfig } from "../config";
import { handleMcpBody, McpReply, isOneToolSuccess } from "../lib/mcp/server";
import { ProtocolVersion, SUPPORTED_VERSIONS } from "../lib/mcp/protocol";
import { MCP_SERVER_INFO } from "../lib/mcp/server-info";
import { pageCallTimeoutMs } from "../lib/crawl/deadline";
import { resolveSigningSecret } from "../lib/storage/signing-secret";
import { RecentMap } from "../lib/cache/recent-map";
import { callerFrom, ToolRunner, ToolRunnerDeps } from "./mcp/tool-runner";

export { MCP_SERVER_INFO };

interface Vars {
	tools: ToolRunnerDeps;
	onInternalError(error: unknown, where: { method: string; tool?: string }): void;
}

type Methods = Record<string, never>;

interface HandleParams {
	body: string;
	protocol_version: ProtocolVersion;
	account?: { account_id: string; plan: string } | null;
}

export default function createMcpService(config: Readonly<AppConfig>): ServiceSchema<ServiceSettingSchema, Methods, Vars> {
	return {
		name: "mcp",
		created() {
			this.tools = {
				publicUrl: config.publicUrl,
				pageTimeoutMs: pageCallTimeoutMs(config.crawl.timeoutMs, 2),
				secret: resolveSigningSecret(config.signingSecret, config.dataDir),
				claimLinks: new RecentMap(1024)
			};
			this.onInternalError = (error, where) => this.logger.error("MCP internal error in", where.method, where.tool ?? "", error);
		},
		actions: {
			/**
			 * Answers one POST /mcp body: `{status: 200, body}` or `{status: 202}` (notifications only).
			 * Never throws for anything in the body; faults inside a tool become -32603.
			 */
			handle: {
				params: {
					body: { type: "string" },
					protocol_version: { type: "enum", values: [...SUPPORTED_VERSIONS] },
					account: {
						type: "object",
						optional: true,
						nullable: true,
						props: { account_id: "string|min:1", plan: "string|min:1" }
					}
				},
				async handler(ctx: Context<HandleParams, Record<string, unknown>>): Promise<McpReply> {
					const caller = callerFrom(ctx.params.account);
					// Built per request, with no closures of its own: this is the hot path of every tool call.
					const runner = new ToolRunner(this.tools, ctx, caller);
					const reply = await handleMcpBody(ctx.params.body, {
						protocolVersion: ctx.params.protocol_version,
						authenticated: caller.kind === "account",
						serverInfo: MCP_SERVER_INFO,
						callTool: runner.run.bind(runner),
						onInternalError: this.onInternalError
					});
					if (runner.lastRead && isOneToolSuccess(reply)) reply.read = runner.lastRead;
					return reply;
				}
			}
		}
	};
}
