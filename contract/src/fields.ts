// Fields many objects share, each written once with its meaning.
import { Type } from '@sinclair/typebox';
import { schemaKit } from '@kerf/engine';

export const { orNull, enumOf, described, nullable } = schemaKit;

const MONEY = 'in cents of `currency` (USD)';
/** An amount in integer cents; `what` says what it is for. */
export const cents = (what: string) => Type.Integer({ description: `${what}, ${MONEY}.` });
export const centsOrNull = (what: string) => orNull<number>({ type: 'integer', description: `${what}, ${MONEY}.` });

/** An ISO 8601 timestamp. */
export const time = (description: string) => Type.String({ format: 'date-time', description });
export const timeOrNull = (description: string) => orNull<string>({ type: 'string', format: 'date-time', description });

export const createdAt = time('When it was created (ISO 8601).');
export const expiresAt = time('When it stops being valid (ISO 8601).');

/** `object`: the type name of the object. */
export const objectName = <const T extends string>(name: T) => Type.Literal(name, { description: 'The object\'s type name.' });
export const id = (of: string) => Type.String({ description: `Unique id of the ${of}.` });

export const Code = Type.String({ description: 'Stable machine-readable code; the error reference at /docs/errors explains each.' });
export const Message = Type.String({ description: 'Human explanation.' });
/** `{code, message}` of what went wrong. */
export const Failure = Type.Object({ code: Code, message: Message });

export const DesignId = Type.String({ description: 'The design (an analysed upload).' });
