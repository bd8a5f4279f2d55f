/** The identity `initialize` reports: the same one the discovery documents publish. */
import { MCP_SERVER } from "../discovery/service-info";
import { API_VERSION } from "../http/versioning";
import type { ServerInfo } from "./protocol";

export const MCP_SERVER_INFO: ServerInfo = { name: MCP_SERVER.name, title: MCP_SERVER.title, version: API_VERSION };
