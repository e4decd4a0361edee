// The few ways the contract's JSON Schemas are written that TypeBox spells otherwise: nullable
// scalars as `type: [T, 'null']` and enums as `enum` (TypeBox's unions would read as anyOf, changing
// the OpenAPI document and every validation message), fixed-length number arrays, and a shared schema
// given the description of the field that holds it. Response objects stay open (no
// additionalProperties): fields may be added, never renamed or dropped (docs/api.md "Conventions").
import { Type, type TSchema } from '@sinclair/typebox';

type Options = Record<string, unknown>;

/** A scalar or null, as `type: [T, 'null']`. */
export const orNull = <T>(schema: Options): TSchema & { static: T | null } =>
  Type.Unsafe<T | null>({ ...schema, type: [schema.type, 'null'] });

/** One of the strings listed, as `enum`. */
export const enumOf = <const T extends readonly string[]>(values: T, options: Options = {}) =>
  Type.Unsafe<T[number]>({ type: 'string', enum: [...values], ...options });

/** The same schema with the description of the field that holds it. */
export const described = <T extends TSchema>(schema: T, description: string): T => ({ ...schema, description });

/** An object or null (anyOf), described as the field holding it. */
export const nullable = <T extends TSchema>(schema: T, description: string) => Type.Union([schema, Type.Null()], { description });

/** [x, y] in mm. */
export const pointMm = (description: string) =>
  Type.Unsafe<[number, number]>({ type: 'array', items: { type: 'number' }, minItems: 2, maxItems: 2, description });

/** [x, y, z] in mm. */
export const point3Mm = (description: string) =>
  Type.Unsafe<[number, number, number]>({ type: 'array', items: { type: 'number' }, minItems: 3, maxItems: 3, description });
