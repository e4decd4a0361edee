// One McpServer per connection (stdio) or per request (HTTP, as the SDK's handler asks): the tools
// bound to the caller they act for.
import { McpServer, type CallToolResult, type ScopeChallengeHandler, type StandardSchemaWithJSON } from '@modelcontextprotocol/server';
import type { TObject } from '@sinclair/typebox';
import { validateInput, type Scope } from '@kerf/usecases';
import { toolError } from './results.ts';
import { toolList, type ToolEnv } from './tools.ts';

/** What an OAuth client connecting to this server asks for: never payments (no tool pays). */
export const MCP_SCOPES: readonly Scope[] = ['designs', 'dfm', 'quotes', 'carts'];

export const SERVER_INFO = { name: 'kerf', title: 'Kerf sheet-metal and tube-laser quoting', version: '0.1.0' };

const INSTRUCTIONS = [
  'Kerf makes sheet-metal and tube-laser parts from STEP files. Workflow:',
  '1. prepare_upload, then send the file (HTTP PUT to upload_url, or a local path with kerf mcp); 2. inspect_design until ready (same design_id throughout);',
  '3. search_catalog for material/tube profile, finish and hardware ids (ids only, never names); 4. configure_design to check a configuration (optional);',
  '5. quote_designs (includes DFM); resolve requires_input or blocked before checkout; 6. create_review_link / get_review_link when a person should check the configuration (re-quote what they saved);',
  '7. create_checkout with a ready quote_id gives a web link where a person pays. No tool pays. 8. get_order_production_files: a paid order\'s nest files for the shop (needs the orders scope).',
  'Every write takes operation_key: reuse it only to retry the identical call; new input needs a new key. Long work keeps its ids: resume with inspect_design or get_quote.',
  'Units: mm; money: USD cents.',
].join('\n');

/**
 * The tool's advertised schema is the strict one; the SDK's own check is left to ours (in the handler,
 * with the use cases' validator), so a bad argument is a tool error that names its field the way
 * every other transport does.
 */
function advertised(schema: TObject): StandardSchemaWithJSON<Record<string, unknown>> {
  const json = JSON.parse(JSON.stringify(schema)) as Record<string, unknown>;
  return {
    '~standard': {
      version: 1,
      vendor: 'kerf',
      validate: (value: unknown) => ({ value: (value ?? {}) as Record<string, unknown> }),
      jsonSchema: { input: () => json, output: () => json },
    },
  };
}

/**
 * An OAuth token lacking what a tool needs is answered 403 insufficient_scope before the tool runs
 * (MCP's step-up): the client asks the person again for the scopes it has plus the missing ones,
 * within the server's own set. API keys hold every scope; stdio has no token.
 */
function stepUp(needs: readonly Scope[]): ScopeChallengeHandler | undefined {
  if (needs.length === 0) return undefined;
  return ({ authInfo }) => {
    if (!authInfo) return undefined;
    const missing = needs.filter((s) => !authInfo.scopes.includes(s));
    if (missing.length === 0) return undefined;
    // a tool may need a scope the server does not ask for at connection (orders): step-up adds it
    const offered = [...MCP_SCOPES, ...needs.filter((s) => !MCP_SCOPES.includes(s))];
    const scopes = offered.filter((s) => authInfo.scopes.includes(s) || needs.includes(s));
    return { scopes: scopes as [Scope, ...Scope[]], errorDescription: `This tool needs the ${missing.join(' and ')} scope` };
  };
}

export function createKerfMcpServer(env: ToolEnv): McpServer {
  const server = new McpServer(SERVER_INFO, { capabilities: { tools: {} }, instructions: INSTRUCTIONS });
  for (const tool of toolList(env.uploads.mode)) {
    server.registerTool(tool.name, {
      title: tool.title,
      description: tool.description,
      inputSchema: advertised(tool.input),
      annotations: tool.annotations,
      scopeChallenge: stepUp(tool.scopes),
    }, async (args: Record<string, unknown>): Promise<CallToolResult> => {
      try {
        validateInput(tool.input, args);
        return await tool.run(env, args);
      } catch (err) {
        return toolError(err, env.ctx.log);
      }
    });
  }
  return server;
}
