// Text of a STEP string (ISO 10303-21, 7.3.3) as a person reads it. The standard's escapes are decoded:
// `''` and `\\`, `\S\c` (c + 128 in the current page), `\PA\`..`\PI\` (that page: ISO 8859-1..9),
// `\X\hh` (one ISO 8859-1 character), `\X2\hhhh..\X0\` (UTF-16) and `\X4\hhhhhhhh..\X0\` (code points).
// Bytes above 127 written raw, which the standard forbids but CAD in non-English locales writes, are
// the writer's own code page: UTF-8 when they form it, else Windows-1251 when they read as Cyrillic
// words, else ISO 8859-1. A reader that already took them for ISO 8859-1 (occt-import-js does) hands
// them over as characters U+0080..U+00FF: the same rule repairs those. Decoding uses the platform's
// WHATWG TextDecoder (full ICU in Node), not hand-written code tables. encodeStepString() writes text
// back as a 7-bit STEP string (the production STEP files' product names).

/** A run of letters this long or longer made only of 8-bit letters is a word of a non-Latin script, chars. */
const NON_LATIN_WORD_MIN = 2;

const utf8 = new TextDecoder('utf-8', { fatal: true });
const cp1251 = new TextDecoder('windows-1251');
const pages = new Map<string, TextDecoder>();
/** `\PA\` is ISO 8859-1 (the default), `\PB\` ISO 8859-2, ... `\PI\` ISO 8859-9. */
function page(letter: string): TextDecoder | null {
  const part = letter.charCodeAt(0) - 64;
  if (part <= 1 || part > 9) return null;
  let d = pages.get(letter);
  if (!d) { try { d = new TextDecoder(`iso-8859-${part}`); } catch { return null; } pages.set(letter, d); }
  return d;
}

const hexUnits = (hex: string, width: number): number[] | null => {
  if (hex.length % width !== 0 || !/^[0-9A-Fa-f]*$/.test(hex)) return null;
  const out: number[] = [];
  for (let i = 0; i < hex.length; i += width) out.push(parseInt(hex.slice(i, i + width), 16));
  return out;
};

/** Escapes decoded; raw 8-bit bytes left as characters U+0080..U+00FF (marked by `raw`). */
function unescape(s: string): { text: string; raw: boolean } {
  let out = '', raw = false, current: TextDecoder | null = null;
  for (let i = 0; i < s.length;) {
    const c = s[i];
    if (c === "'" && s[i + 1] === "'") { out += "'"; i += 2; continue; }
    if (c !== '\\') {
      if (c.charCodeAt(0) >= 0x80 && c.charCodeAt(0) <= 0xff) raw = true;
      out += c; i++; continue;
    }
    const rest = s.slice(i);
    let m: RegExpExecArray | null;
    if (rest.startsWith('\\\\')) { out += '\\'; i += 2; continue; }
    if ((m = /^\\X\\([0-9A-Fa-f]{2})/.exec(rest))) { out += String.fromCharCode(parseInt(m[1], 16)); i += m[0].length; continue; }
    if ((m = /^\\X2\\([0-9A-Fa-f]*)\\X0\\/.exec(rest))) {
      const units = hexUnits(m[1], 4);
      if (units) { out += String.fromCharCode(...units); i += m[0].length; continue; }
    }
    if ((m = /^\\X4\\([0-9A-Fa-f]*)\\X0\\/.exec(rest))) {
      const points = hexUnits(m[1], 8);
      if (points && points.every((p) => p <= 0x10ffff)) { out += String.fromCodePoint(...points); i += m[0].length; continue; }
    }
    if ((m = /^\\P([A-I])\\/.exec(rest))) { current = page(m[1]); i += m[0].length; continue; }
    if ((m = /^\\S\\([\s\S])/.exec(rest))) {
      const byte = (m[1].charCodeAt(0) & 0x7f) + 0x80;
      out += current ? current.decode(new Uint8Array([byte])) : String.fromCharCode(byte);
      i += m[0].length; continue;
    }
    out += c; i++; // a lone backslash: kept as written
  }
  return { text: out, raw };
}

const isHigh = (code: number) => code >= 0x80 && code <= 0xff;

/** Windows-1251 when the 8-bit letters make whole words (Cyrillic read as Latin-1 is "Ãàéêà"), not accents inside Latin words. */
function looksCyrillic(s: string): boolean {
  let whole = 0, mixed = 0;
  for (const word of s.match(/[A-Za-z\u00c0-\u00ff]+/g) ?? []) {
    const high = [...word].filter((ch) => ch.charCodeAt(0) >= 0xc0).length;
    if (high === 0) continue;
    if (high === word.length) { if (word.length >= NON_LATIN_WORD_MIN) whole++; } else mixed++;
  }
  return whole > mixed;
}

/** 8-bit characters re-read in the code page their bytes came from. */
function recode(s: string): string {
  if (![...s].some((ch) => isHigh(ch.charCodeAt(0)))) return s;
  // only characters up to U+00FF can be bytes; a string already holding wider ones was decoded by its reader
  if ([...s].some((ch) => ch.codePointAt(0)! > 0xff)) return s;
  const bytes = Uint8Array.from(s, (ch) => ch.charCodeAt(0));
  try { return utf8.decode(bytes); } catch { /* not UTF-8 */ }
  return looksCyrillic(s) ? cp1251.decode(bytes) : s;
}

/**
 * The readable text of a STEP string's content (between its quotes, as the file's bytes read one
 * character per byte, or as a reader that did so returned it): ISO 10303-21 escapes decoded, raw
 * 8-bit names in their writer's code page, normalised to NFC. "Ãàéêà êëåïàëüíàÿ Ì4" (Windows-1251
 * bytes read as Latin-1) is "Гайка клепальная М4".
 */
export function decodeStepName(raw: string): string {
  const { text, raw: hasRaw } = unescape(raw);
  // escaped ISO 8859-1 characters are what the writer meant; only raw bytes (or a reader's Latin-1 of them) are re-read
  return (hasRaw ? recode(text) : text).normalize('NFC');
}

const hex = (n: number, width: number) => n.toString(16).toUpperCase().padStart(width, '0');

/**
 * Text as the content of a STEP string (between its quotes), 7-bit as ISO 10303-21 wants it: `'` and
 * `\` doubled, characters beyond ASCII as `\X2\hhhh..\X0\` (UCS-2) or, above U+FFFF,
 * `\X4\hhhhhhhh..\X0\`; control characters as spaces. decodeStepName() reads it back.
 */
export function encodeStepString(text: string): string {
  let out = '', run = '', runWidth = 0;
  const flush = () => { if (run) out += `\\X${runWidth / 2}\\${run}\\X0\\`; run = ''; runWidth = 0; };
  for (const ch of text.normalize('NFC')) {
    const c = ch.codePointAt(0)!;
    if (c >= 0x20 && c < 0x7f) { flush(); out += ch === "'" ? "''" : ch === '\\' ? '\\\\' : ch; continue; }
    if (c < 0xa0) { flush(); out += ' '; continue; } // C0, DEL and C1 controls
    const width = c > 0xffff ? 8 : 4;
    if (width !== runWidth) flush();
    runWidth = width;
    run += hex(c, width);
  }
  flush();
  return out;
}
