// The caller's JSON values (payloads, results, document data, replayed bodies) are kept exactly as
// JSON keeps them in both stores: no undefined, no Date objects, no class instances.
import { randomUUID } from 'node:crypto';
import { StoreError } from '../port.ts';

/** What `make` returns, or the store's refusal of `param` when JSON cannot write the value. */
function serialisable<T>(param: string, make: () => T | undefined): T {
  let made: T | undefined;
  try {
    made = make();
  } catch (err) {
    throw new StoreError('invalid_argument', `${param} is not JSON-serialisable`, param, { cause: err });
  }
  if (made === undefined) throw new StoreError('invalid_argument', `${param} is not JSON-serialisable`, param);
  return made;
}

/** A kept value's text that jsonTextApart took out of a document's text. */
export interface TextApart {
  /** where its placeholder (`{}` or `[]`) stands in the document's text */
  at: number;
  /** sha256 of `text`, base64url */
  hash: string;
  text: string;
}

/** Kept texts shorter than this stay in the document's text: apart, their name and row would cost more. */
export const MIN_TEXT_APART = 256;

/** Where jsonTextApart stands a value apart in place; only JSON.stringify's replacer sees it. */
const MARK = `kerf-apart-${randomUUID()}-`;
const MARKED = new RegExp(`"${MARK}(\\d+)"`, 'g');

/**
 * toJsonText(value) as a store may keep it: the texts of the values named in `apart` (the caller's
 * own: values inside `value` that are the same JSON in many documents and never change), at least
 * MIN_TEXT_APART long, taken out, each leaving an empty object or array of its own type in its
 * place, so the rest is still JSON of the same shape (a filter on a field reads an object or array
 * there, as before). joinTextsApart(text, apart) gives toJsonText(value) back. `textOf` makes a
 * value's text and hash (the store remembers them per value).
 */
export function jsonTextApart(value: unknown, param: string, apart: ReadonlySet<object> | undefined, textOf: (v: object) => { text: string; hash: string }): { text: string; apart: TextApart[] } {
  if (!apart || apart.size === 0 || apart.has(value as object)) return { text: toJsonText(value, param), apart: [] };
  const found: object[] = [];
  const text = serialisable(param, () => JSON.stringify(value, (_key, v: unknown) => {
    if (typeof v !== 'object' || v === null || !apart.has(v)) return v;
    found.push(v);
    return `${MARK}${found.length - 1}`;
  }) as string | undefined);
  if (found.length === 0) return { text, apart: [] };
  const out: TextApart[] = [];
  let whole = '';
  let at = 0;
  for (const m of text.matchAll(MARKED)) {
    whole += text.slice(at, m.index);
    const kept = textOf(found[Number(m[1])]);
    if (kept.text.length < MIN_TEXT_APART) whole += kept.text;
    else {
      out.push({ at: whole.length, hash: kept.hash, text: kept.text });
      whole += kept.text.charCodeAt(0) === 0x5b ? '[]' : '{}';
    }
    at = m.index + m[0].length;
  }
  return { text: whole + text.slice(at), apart: out };
}

/** The document's whole text: each text apart back in place of its placeholder (in `at` order). */
export function joinTextsApart(text: string, apart: ReadonlyArray<{ at: number; text: string }>): string {
  let out = '';
  let from = 0;
  for (const a of apart) {
    out += text.slice(from, a.at) + a.text;
    from = a.at + 2;
  }
  return out + text.slice(from);
}

export function toJsonText(value: unknown, param: string): string {
  return serialisable(param, () => JSON.stringify(value) as string | undefined);
}

export function plainJson(value: unknown, param: string): unknown {
  return JSON.parse(toJsonText(value, param));
}
