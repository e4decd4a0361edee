// @kerf/mcp: the MCP servers (hosted Streamable HTTP plugin, stdio) over the use cases.
export {};
