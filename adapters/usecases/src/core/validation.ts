// Input validation for every use case, with one way of naming what is wrong: `param` is the path of
// the offending field (`items[0].quantity`), the code says missing / unknown / invalid. Transports
// that validate earlier (REST, with query strings coerced from text) report through the same mapping.
import { Ajv, type ErrorObject, type ValidateFunction } from 'ajv';
import addFormatsModule from 'ajv-formats';
import type { TSchema, Static } from '@sinclair/typebox';
import { UseCaseError } from './errors.ts';

const addFormats = addFormatsModule as unknown as (ajv: Ajv) => Ajv;

/** Input as sent: no coercion, no stripping; defaults filled in. */
export function makeAjv(coerce: boolean): Ajv {
  const ajv = new Ajv({ coerceTypes: coerce ? 'array' : false, removeAdditional: false, useDefaults: true, allErrors: false, strict: false });
  addFormats(ajv);
  return ajv;
}

const ajv = makeAjv(false);
const compiled = new WeakMap<object, ValidateFunction>();

export interface ValidationIssue { keyword: string; instancePath: string; params: Record<string, unknown>; message?: string }

/** Where the input came from, for the message: a body, a query string, path parameters. */
export type InputLocation = 'body' | 'querystring' | 'params' | string;

function paramOf(issue: ValidationIssue, location: InputLocation | undefined): string | null {
  const parts = issue.instancePath.split('/').filter(Boolean);
  if (issue.keyword === 'required') parts.push(String(issue.params.missingProperty));
  if (issue.keyword === 'additionalProperties') parts.push(String(issue.params.additionalProperty));
  let out = '';
  for (const p of parts) out += /^\d+$/.test(p) ? `[${p}]` : out ? `.${p}` : p;
  if (!out && location === 'body') return null;
  return out || null;
}

function codeOf(issue: ValidationIssue): string {
  if (issue.keyword === 'required') return 'parameter_missing';
  if (issue.keyword === 'additionalProperties') return 'parameter_unknown';
  return 'parameter_invalid';
}

function messageOf(issue: ValidationIssue, param: string | null, location: InputLocation | undefined): string {
  const where = param ? `'${param}'` : location === 'body' ? 'the request body' : `the ${location ?? 'request'}`;
  if (issue.keyword === 'required') return `Missing required parameter ${where}.`;
  if (issue.keyword === 'additionalProperties') return `Unknown parameter ${where}.`;
  // name the choices instead of "must be equal to one of the allowed values"
  const allowed = issue.keyword === 'enum' && Array.isArray(issue.params.allowedValues) ? issue.params.allowedValues : null;
  const why = allowed ? `must be one of ${allowed.map(String).join(', ')}` : issue.message ?? 'not valid';
  return param ? `Invalid ${where}: ${why}.` : `${where.charAt(0).toUpperCase()}${where.slice(1)} is invalid: ${why}.`;
}

/** The first issue as the error, every issue (up to 20) in `details.issues`. */
export function validationError(issues: readonly ValidationIssue[], location: InputLocation | undefined): UseCaseError {
  const issue = issues[0];
  const param = paramOf(issue, location);
  return new UseCaseError('invalid', 'invalid_request_error', codeOf(issue), messageOf(issue, param, location), {
    param,
    details: { location: location ?? null, issues: issues.slice(0, 20).map((i) => ({ param: paramOf(i, location), keyword: i.keyword, message: i.message ?? null })) },
  });
}

/** Checks `input` against `schema` (defaults filled in place) or throws the error naming the field. */
export function validateInput<S extends TSchema>(schema: S, input: unknown, options: { location?: InputLocation; prefix?: string } = {}): Static<S> {
  let check = compiled.get(schema);
  if (!check) compiled.set(schema, (check = ajv.compile(schema)));
  if (check(input)) return input as Static<S>;
  const err = validationError(check.errors as ErrorObject[], options.location ?? 'body');
  if (!options.prefix) throw err;
  // a field nested in a transport's own envelope (the file quote's JSON `request` form field)
  const prefix = options.prefix;
  throw new UseCaseError(err.kind, err.type, err.code, err.message.replace(/'([^']+)'/, `'${prefix}.$1'`), { param: err.param ? `${prefix}.${err.param}` : prefix, details: err.details });
}
