// Recognises what a byte buffer is before OCCT sees it, so that a wrong file gets a precise
// `invalid_step` message instead of OCCT's silent failure.
import { gunzipSync } from 'node:zlib';
import { EngineError } from '../contract.ts';

const HEADER_SCAN_BYTES = 4096;
const TAIL_SCAN_BYTES = 4096;

function ascii(bytes: Uint8Array, start: number, end: number): string {
  return new TextDecoder('latin1').decode(bytes.subarray(Math.max(0, start), Math.min(bytes.length, end)));
}

/** `head`: the file's first bytes (at least 84 when it has them); `size`: the whole file's. */
function looksLikeBinaryStl(head: Uint8Array, size: number): boolean {
  if (size < 84 || head.length < 84) return false;
  const view = new DataView(head.buffer, head.byteOffset, head.byteLength);
  const triangles = view.getUint32(80, true);
  return size === 84 + triangles * 50;
}

/** A gzip-compressed STEP (.stpZ, .step.gz) may expand to at most this, bytes (zip-bomb guard). */
const MAX_DECOMPRESSED_BYTES = 512 * 1024 * 1024;

/** The STEP text of a plain or gzip-compressed upload; a ZIP archive is refused with a hint. */
export function unwrapStepBytes(bytes: Uint8Array): Uint8Array {
  if (isGzip(bytes)) {
    try {
      const out = gunzipSync(bytes, { maxOutputLength: MAX_DECOMPRESSED_BYTES });
      return new Uint8Array(out.buffer, out.byteOffset, out.byteLength);
    } catch (err) {
      const tooBig = (err as { code?: string }).code === 'ERR_BUFFER_TOO_LARGE';
      throw new EngineError('invalid_step', tooBig
        ? `the compressed STEP file expands beyond ${MAX_DECOMPRESSED_BYTES / 1048576} MB`
        : 'the file is gzip-compressed but corrupt');
    }
  }
  assertNotZip(bytes);
  return bytes;
}

const isGzip = (bytes: Uint8Array): boolean => bytes.length >= 2 && bytes[0] === 0x1f && bytes[1] === 0x8b;

function assertNotZip(bytes: Uint8Array): void {
  if (bytes.length >= 4 && bytes[0] === 0x50 && bytes[1] === 0x4b && bytes[2] === 0x03 && bytes[3] === 0x04) {
    throw new EngineError('invalid_step', 'the file is a ZIP archive, not a STEP file; upload the STEP file it contains');
  }
}

/**
 * Throws `invalid_step` with the reason when the bytes cannot be a complete STEP (ISO 10303-21) file.
 * The same reasons as the import gives, so an upload refused before analysis reads as the library's
 * refusal: a ZIP is named as such; a gzip-compressed STEP passes (the import unwraps and checks it).
 */
export function assertStepBytes(bytes: Uint8Array): void {
  assertStepEnds(bytes.subarray(0, STEP_SNIFF_BYTES), bytes.subarray(Math.max(0, bytes.length - STEP_SNIFF_BYTES)), bytes.length);
}

/** Bytes of each end of a file that `assertStepEnds` reads. */
export const STEP_SNIFF_BYTES = Math.max(HEADER_SCAN_BYTES, TAIL_SCAN_BYTES);

/**
 * The same check on a file not held in memory (an upload spooled to disk): its first and last
 * STEP_SNIFF_BYTES (the whole file when it is shorter) and its size in bytes.
 */
export function assertStepEnds(head: Uint8Array, tail: Uint8Array, size: number): void {
  if (size === 0) throw new EngineError('invalid_step', 'the file is empty');
  assertNotZip(head);
  if (isGzip(head)) return;
  const start = ascii(head, 0, HEADER_SCAN_BYTES);
  const trimmed = start.replace(/^\uFEFF/, '').trimStart();
  if (!trimmed.startsWith('ISO-10303-21')) {
    if (/^solid\s/i.test(trimmed) && /facet\s+normal/i.test(start)) {
      throw new EngineError('invalid_step', 'the file is an ASCII STL mesh, not a STEP file; export STEP (AP203/AP214/AP242) from your CAD system');
    }
    if (looksLikeBinaryStl(head, size)) {
      throw new EngineError('invalid_step', 'the file is a binary STL mesh, not a STEP file; export STEP (AP203/AP214/AP242) from your CAD system');
    }
    const firstLine = start.split(/\r?\n/, 1)[0] ?? '';
    if (firstLine.length >= 73 && firstLine[72] === 'S' && /^[ 0-9]{7}$/.test(firstLine.slice(73, 80))) {
      throw new EngineError('invalid_step', 'the file is an IGES file, not a STEP file; export STEP (AP203/AP214/AP242) from your CAD system');
    }
    throw new EngineError('invalid_step', 'the file is not a STEP file: it does not start with the ISO-10303-21 header');
  }
  if (!/HEADER\s*;/.test(start)) throw new EngineError('invalid_step', 'the STEP file has no HEADER section');
  const end = ascii(tail, tail.length - TAIL_SCAN_BYTES, tail.length);
  if (!/END-ISO-10303-21\s*;\s*$/.test(end.replace(/\0+$/, ''))) {
    throw new EngineError('invalid_step', 'the STEP file is truncated: it does not end with END-ISO-10303-21;');
  }
}

/** Bytes a regular expression's \\s matches in Latin-1 text: tab, line feed, vertical tab, form feed,
 * carriage return, space and no-break space. */
const SPACE_BYTES = new Set([0x09, 0x0a, 0x0b, 0x0c, 0x0d, 0x20, 0xa0]);
const EQUALS = 0x3d, OPEN_PARENTHESIS = 0x28;
const isNameByte = (c: number): boolean => (c >= 0x30 && c <= 0x39) || (c >= 0x41 && c <= 0x5a) || (c >= 0x61 && c <= 0x7a) || c === 0x5f;

/**
 * How many entity instances of the named types (`= NAME (`, any case, any spacing) the STEP text
 * declares, counting at most `limit`. Scans the bytes instead of decoding a multi-megabyte file to a
 * string for a regular expression: the file is read once more on every import.
 */
function countEntities(bytes: Uint8Array, names: ReadonlySet<string>, limit = Infinity): number {
  // a name of another length, or starting with another letter (either case), is none of them: no
  // string is built for the tens of thousands of points, edges and faces of an assembly
  const lengths = new Set([...names].map((n) => n.length));
  const firsts = new Set([...names].flatMap((n) => [n.charCodeAt(0), n.toLowerCase().charCodeAt(0)]));
  let count = 0;
  for (let i = bytes.indexOf(EQUALS); i >= 0 && count < limit; i = bytes.indexOf(EQUALS, i + 1)) {
    let j = i + 1;
    while (j < bytes.length && SPACE_BYTES.has(bytes[j])) j++;
    const start = j;
    while (j < bytes.length && isNameByte(bytes[j])) j++;
    if (j === start || !lengths.has(j - start) || !firsts.has(bytes[start])) continue;
    let name = '';
    for (let k = start; k < j; k++) name += String.fromCharCode(bytes[k]);
    if (!names.has(name.toUpperCase())) continue;
    while (j < bytes.length && SPACE_BYTES.has(bytes[j])) j++;
    if (bytes[j] === OPEN_PARENTHESIS) count++;
  }
  return count;
}

const SOLID_ENTITIES = new Set(['MANIFOLD_SOLID_BREP', 'BREP_WITH_VOIDS', 'FACETED_BREP']);
const SURFACE_ONLY_ENTITIES = new Set(['SHELL_BASED_SURFACE_MODEL', 'OPEN_SHELL', 'GEOMETRIC_CURVE_SET']);
const SURFACE_MODEL_ENTITIES = new Set(['SHELL_BASED_SURFACE_MODEL', 'OPEN_SHELL']);

/** Number of solid bodies the STEP text declares (B-rep solid entities), to tell a file without
 * solids from a corrupt one when the reader gets nothing out of it. */
export function declaredSolidCount(bytes: Uint8Array): number {
  return countEntities(bytes, SOLID_ENTITIES);
}

/** True when the STEP text declares surface models (open shells) but no solid. */
export function declaresSurfacesOnly(bytes: Uint8Array): boolean {
  return countEntities(bytes, SURFACE_ONLY_ENTITIES, 1) > 0;
}

/** True when the STEP text declares a surface model (open shells, shell-based models) at all, solids
 * or not: such bodies must be sewn before they can be counted (see sew.ts). */
export function declaresSurfaceModel(bytes: Uint8Array): boolean {
  return countEntities(bytes, SURFACE_MODEL_ENTITIES, 1) > 0;
}
