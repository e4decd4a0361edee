// Interactive engine work (an image or a model made while a client waits: a REST file route, an MCP
// preview, a web page) is for that client only: once its connection closes before the answer is
// written, the work is abandoned (the use cases drop engine work still waiting for it; see
// UseCaseContext.signal). Every transport ties its requests to the use cases through this one helper.
import type { UseCaseContext } from '@kerf/usecases';

/** The response a client waits on (node's http.ServerResponse). */
export interface ClientResponse {
  once(event: 'close', listener: () => void): unknown;
  readonly writableEnded: boolean;
  /** true once the connection has closed (then 'close' has already been emitted) */
  readonly destroyed: boolean;
}

/** The context for work done while `response`'s client waits: its signal aborts when the client goes. */
export function whileClientWaits(ctx: UseCaseContext, response: ClientResponse): UseCaseContext {
  const gone = new AbortController();
  const closed = (): void => { if (!response.writableEnded) gone.abort(); };
  // a page that did other work first may ask after the client has already gone
  if (response.destroyed) closed();
  else response.once('close', closed);
  return { ...ctx, signal: gone.signal };
}
