// What an MCP tool is: its description and input schema for the client, and the run that calls the
// use cases. tools.ts lists them; checkout.ts defines the checkout tool apart.
import type { TObject } from '@sinclair/typebox';
import type { Caller, Scope, UseCaseContext } from '@kerf/usecases';
import type { CallToolResult, ToolAnnotations } from '@modelcontextprotocol/server';

/** What a tool runs against: the use cases, who is asking, and how files arrive. */
export interface ToolEnv {
  ctx: UseCaseContext;
  caller: Caller;
  /** hosted: bytes by HTTP PUT to upload_url; local: a path on this machine */
  uploads: { mode: 'hosted'; uploadUrl(token: string): string; browserUploadUrl(token: string): string } | { mode: 'local' };
  /**
   * Local mode: a sentence to add after a web link (checkout, review) when no service serves it yet,
   * saying how to start one; null when the links open. Hosted: absent (the server is the site).
   */
  webLinksNote?: () => Promise<string | null>;
}

/** The text of a result that hands a person a web link, with the local server's note when it has one. */
export async function withWebLinksNote(env: ToolEnv, text: string): Promise<string> {
  const note = env.webLinksNote ? await env.webLinksNote() : null;
  return note ? `${text}\n${note}` : text;
}

export interface ToolDef {
  name: string;
  title: string;
  description: string;
  input: TObject;
  /** what its use cases require of an OAuth token (a token without them is challenged to ask for them) */
  scopes: Scope[];
  annotations: ToolAnnotations;
  run(env: ToolEnv, args: Record<string, unknown>): Promise<CallToolResult>;
}
