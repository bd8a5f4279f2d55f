/** The tool-protocol revision the benchmarks speak (the newest: tools/list carries output schemas). */
export const MCP_VERSION = "2025-06-18" as const;
