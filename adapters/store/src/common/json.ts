// The caller's JSON values (payloads, results, document data, replayed bodies) are kept exactly as
// JSON keeps them in both stores: no undefined, no Date objects, no class instances.
import { createHash, randomUUID } from 'node:crypto';
import { StoreError } from '../port.ts';

/**
 * JSON texts of values that never change, made once. A quote embeds its items' DFM reports (about
 * 17 KB each, shared by every quote of that design and configuration once settled), and a quote is
 * serialised three times: the stored record, its event and the response. With the report's text
 * kept, each serialisation writes the 2 KB around it and splices the report's text in.
 */
interface Kept {
  text: string;
  /** its UTF-8 bytes, made the first time a response carries it (jsonPayload) */
  bytes?: Buffer;
  /** sha256 of the text, base64url: its name where a store keeps it apart (jsonTextApart) */
  hash?: string;
}
const kept = new WeakMap<object, Kept>();
/** The kept values spliced by the call under way; null outside one, so plain JSON.stringify sees the value itself. */
let splicing: Kept[] | null = null;
/** A per-process random mark: no string in the data can be taken for a splice point. */
const MARK = `kerf-json-${randomUUID()}-`;
const MARKED = new RegExp(`"${MARK}(\\d+)"`, 'g');

function spliceMark(this: object): unknown {
  const entry = splicing === null ? undefined : kept.get(this);
  if (entry === undefined) return this;
  splicing!.push(entry);
  return `${MARK}${splicing!.length - 1}`;
}

/**
 * Keeps `value`'s JSON text for jsonText() to reuse; the caller must never change `value` afterwards
 * (freeze it). Returns `value`.
 */
export function keepJsonText<T extends object>(value: T): T {
  if (kept.has(value)) return value;
  kept.set(value, { text: JSON.stringify(value) });
  // not enumerable: copies ({ ...value }) and key listings do not carry it
  Object.defineProperty(value, 'toJSON', { value: spliceMark, enumerable: false });
  return value;
}

/** JSON.stringify(value) with splice marks where kept values stand, and those values in mark order. */
function markedText(value: unknown): { text: string; texts: Kept[] } {
  const outer = splicing;
  const texts: Kept[] = [];
  splicing = texts;
  try { return { text: JSON.stringify(value), texts }; } finally { splicing = outer; }
}

/** JSON.stringify(value), with the kept texts of keepJsonText() values spliced in where they stand. */
export function jsonText(value: unknown): string {
  const { text, texts } = markedText(value);
  if (texts.length === 0 || text === undefined) return text;
  return text.replace(MARKED, (_m, i: string) => texts[Number(i)].text);
}

/**
 * jsonText(value) as the bytes a response sends: a Buffer of the kept texts' bytes (encoded once)
 * between the encoded pieces around them, so a quote's 17 KB report is neither copied into a new
 * string nor encoded again per response; the plain string when nothing was kept.
 */
export function jsonPayload(value: unknown): string | Buffer {
  const { text, texts } = markedText(value);
  if (texts.length === 0 || text === undefined) return text;
  const parts: Buffer[] = [];
  eachPiece(text, texts, (between) => parts.push(Buffer.from(between, 'utf8')), (entry) => parts.push(entry.bytes ??= Buffer.from(entry.text, 'utf8')));
  return Buffer.concat(parts);
}

/** Walks a marked text in order: `between` for each stretch of plain text, `kept` for each kept value's mark. */
function eachPiece(text: string, texts: Kept[], between: (piece: string) => void, kept: (entry: Kept) => void): void {
  let at = 0;
  for (const m of text.matchAll(MARKED)) {
    between(text.slice(at, m.index));
    kept(texts[Number(m[1])]);
    at = m.index + m[0].length;
  }
  between(text.slice(at));
}

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

/**
 * toJsonText(value) as a store may keep it: the texts of kept values (keepJsonText, at least
 * MIN_TEXT_APART long) taken out, each leaving an empty object or array of its own type in its place,
 * so the rest is still JSON of the same shape (a filter on a field reads an object or array there,
 * as before). joinTextsApart(text, apart) gives toJsonText(value) back. A value that is itself kept
 * stays whole.
 */
export function jsonTextApart(value: unknown, param: string): { text: string; apart: TextApart[] } {
  const { text, texts } = serialisable(param, () => {
    const marked = markedText(value);
    return marked.text === undefined ? undefined : marked;
  });
  if (texts.length === 0) return { text, apart: [] };
  if (texts.length === 1 && text === `"${MARK}0"`) return { text: texts[0].text, apart: [] };
  const apart: TextApart[] = [];
  let out = '';
  eachPiece(text, texts, (between) => { out += between; }, (entry) => {
    if (entry.text.length < MIN_TEXT_APART) { out += entry.text; return; }
    apart.push({ at: out.length, hash: entry.hash ??= createHash('sha256').update(entry.text).digest('base64url'), text: entry.text });
    out += entry.text.charCodeAt(0) === 0x5b ? '[]' : '{}';
  });
  return { text: out, apart };
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
  return serialisable(param, () => jsonText(value));
}

export function plainJson(value: unknown, param: string): unknown {
  return JSON.parse(toJsonText(value, param));
}
