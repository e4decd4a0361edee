// The distance accuracy a STEP file declares for its geometry (ISO 10303-42's
// UNCERTAINTY_MEASURE_WITH_UNIT named 'distance_accuracy_value': the largest model-space distance
// between entities the file asserts are connected), in mm. SolidWorks writes 1e-5 mm; Autodesk Fusion
// writes 0.01 mm, and its tessellation vertices on edges lie up to that far off the faces they bound.
import { Buffer } from 'node:buffer';

const MARK = 'UNCERTAINTY_MEASURE_WITH_UNIT';
/** Characters read after the mark for the value, the unit reference and the name. */
const WINDOW = 400;
/** Millimetres per unit of the SI prefixes a length unit may carry. */
const SI_PREFIX_MM: Record<string, number> = { '$': 1000, '.MILLI.': 1, '.CENTI.': 10, '.DECI.': 100, '.KILO.': 1e6, '.MICRO.': 1e-3 };
/** Millimetres per unit of the conversion-based length units CAD writes. */
const NAMED_UNIT_MM: Record<string, number> = { INCH: 25.4, FOOT: 304.8, MILLIMETRE: 1, MILLIMETER: 1, CENTIMETRE: 10, METRE: 1000 };

/** The declared distance accuracy in mm, or null when the file declares none (or in a unit not read here). */
export function declaredAccuracyMm(bytes: Uint8Array): number | null {
  const buf = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  for (let at = buf.indexOf(MARK); at >= 0; at = buf.indexOf(MARK, at + MARK.length)) {
    const text = buf.toString('latin1', at, Math.min(buf.length, at + WINDOW));
    const m = /^UNCERTAINTY_MEASURE_WITH_UNIT\s*\(\s*LENGTH_MEASURE\s*\(\s*([-+0-9.eE]+)\s*\)\s*,\s*#(\d+)\s*,\s*'([^']*)'/.exec(text);
    if (!m || m[3].toLowerCase() !== 'distance_accuracy_value') continue;
    const value = Number(m[1]), mm = unitMm(buf, m[2]);
    if (Number.isFinite(value) && value > 0 && mm !== null) return value * mm;
  }
  return null;
}

/** Millimetres per unit of the length unit entity #id. */
function unitMm(buf: Buffer, id: string): number | null {
  for (const head of [`#${id}=`, `#${id} =`]) {
    const at = buf.indexOf(head);
    if (at < 0) continue;
    const end = buf.indexOf(';', at);
    const text = buf.toString('latin1', at, end < 0 ? buf.length : end).toUpperCase();
    const si = /SI_UNIT\s*\(\s*(\$|\.[A-Z]+\.)\s*,\s*\.METRE\.\s*\)/.exec(text);
    if (si) return SI_PREFIX_MM[si[1]] ?? null;
    const named = /CONVERSION_BASED_UNIT\s*\(\s*'([^']*)'/.exec(text);
    if (named) return NAMED_UNIT_MM[named[1].trim().toUpperCase()] ?? null;
    return null;
  }
  return null;
}
