// How the routes' schemas become the OpenAPI document (/v1/openapi.json): responses are the use
// cases' objects (@kerf/usecases `objects`), requests their input schemas, each field described
// where it is defined. What is HTTP's alone lives here: which statuses answer with the error
// envelope, redirects and empty answers, how an input splits into path and query.
import { Type, type TObject } from '@sinclair/typebox';
import { objects } from '@kerf/usecases';

type S = Record<string, unknown>;

/** The error envelope as a response: the one shape of every error (docs/api.md "Errors"). */
export const errorResponse: S = { ...objects.ErrorEnvelope, description: 'Error' };

/** Standard error responses every authenticated route may give. */
export function errorResponses(...statuses: number[]): Record<string, S> {
  const out: Record<string, S> = {};
  for (const s of [400, 401, 404, 422, 429, 500, 503, ...statuses]) out[String(s)] = errorResponse;
  return out;
}

export const noContentResponse: S = { description: 'No content', type: 'null' };

export const redirectResponse: S = { description: 'Redirect to a short-lived signed download URL', type: 'null' };

/** A use case's input split the way HTTP carries it: path parameters, and the query string. */
export function pathAndQuery(input: TObject, pathKeys: string[]): { params: TObject; querystring?: TObject } {
  const rest = Object.keys(input.properties).filter((k) => !pathKeys.includes(k));
  return rest.length ? { params: Type.Pick(input, pathKeys), querystring: Type.Omit(input, pathKeys) } : { params: input };
}

type Schema = { description?: string; $ref?: string };
interface Operation { summary?: string; requestBody?: { content?: Record<string, { schema?: Schema }> }; responses?: Record<string, { description?: string; content?: Record<string, { schema?: Schema }> }> }

/**
 * Each request and response body says what it is: the operation's summary, the response's
 * description (its fields are described by their schemas).
 */
export function describeBodies(doc: { paths?: Record<string, Record<string, unknown>> }): void {
  for (const ops of Object.values(doc.paths ?? {})) {
    for (const raw of Object.values(ops)) {
      if (typeof raw !== 'object' || raw === null) continue;
      const op = raw as Operation;
      for (const c of Object.values(op.requestBody?.content ?? {})) {
        if (c.schema && !c.schema.$ref) c.schema.description ??= `Request body of: ${op.summary ?? 'this operation'}.`;
      }
      for (const [status, r] of Object.entries(op.responses ?? {})) {
        for (const c of Object.values(r.content ?? {})) {
          if (c.schema && !c.schema.$ref) c.schema.description ??= r.description ?? `Response ${status}.`;
        }
      }
    }
  }
}
