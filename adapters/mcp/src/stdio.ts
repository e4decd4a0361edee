// `kerf mcp`: the same tools over stdio for an agent on this machine. Files come from local paths;
// the protocol era is chosen by the client's opening message (the SDK pins one server per connection).
import { serveStdio, type StdioServerHandle } from '@modelcontextprotocol/server/stdio';
import type { Caller, UseCaseContext } from '@kerf/usecases';
import { createKerfMcpServer } from './server.ts';

export function serveMcpStdio(ctx: UseCaseContext, caller: Caller, webLinksNote?: () => Promise<string | null>): StdioServerHandle {
  return serveStdio(() => createKerfMcpServer({ ctx, caller, uploads: { mode: 'local' }, webLinksNote }), {
    onerror: (err) => ctx.log.warn({ err: err.message }, 'MCP stdio error'),
  });
}
