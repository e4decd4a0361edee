// Two Ajv instances: bodies are validated as sent (no coercion, no stripping: an unknown or mistyped
// field is an error naming `param`), as the use cases validate them; query strings and path params
// arrive as text and are coerced first.
import type { FastifySchemaCompiler } from 'fastify';
import { makeAjv } from '@kerf/usecases';

const bodyAjv = makeAjv(false);
const queryAjv = makeAjv(true);

/** Multipart bodies are parsed and checked by the route itself (the schema only documents them). */
export const MULTIPART_MARK = 'x-kerf-multipart';

export function validatorCompiler(shared: object[]): FastifySchemaCompiler<Record<string, unknown>> {
  for (const s of shared) {
    const id = (s as { $id?: string }).$id;
    if (id && !bodyAjv.getSchema(id)) bodyAjv.addSchema(s);
    if (id && !queryAjv.getSchema(id)) queryAjv.addSchema(s);
  }
  return ({ schema, httpPart }) => {
    if (httpPart !== 'body') return queryAjv.compile(schema) as never;
    if ((schema as Record<string, unknown>)[MULTIPART_MARK]) return (() => true) as never;
    const json = bodyAjv.compile(schema);
    // A route that also takes multipart (POST /v1/quotes) checks the multipart form itself.
    const fn = (data: unknown): boolean => {
      if (data && typeof data === 'object' && (data as Record<string, unknown>)[MULTIPART_BODY]) return true;
      const ok = json(data) as boolean;
      (fn as unknown as { errors: unknown }).errors = json.errors;
      return ok;
    };
    return fn as never;
  };
}

/** Marker set on a parsed multipart body so the JSON validator leaves it alone. */
export const MULTIPART_BODY = '__kerf_multipart';
