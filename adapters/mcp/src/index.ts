// @kerf/mcp: the MCP servers over the use cases. `mcpHttp` is the hosted endpoint ({base_url}/mcp,
// Streamable HTTP) as a fastify plugin; `createKerfMcpServer` builds the same tools for a transport
// the caller owns (stdio for `kerf mcp`, with files read from local paths).
export { mcpHttp, MCP_PATH, UPLOAD_PATH, type McpHttpOptions } from './http.ts';
export { createKerfMcpServer, SERVER_INFO, MCP_SCOPES } from './server.ts';
export { serveMcpStdio } from './stdio.ts';
export type { ToolEnv } from './tools.ts';
