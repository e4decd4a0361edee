// What a part's name says it is, when it names bought-in hardware: a fastener word in the languages
// CAD files are written in (English, German, French, Spanish, Italian, Russian, Polish, Czech...), a
// standard's number (ISO 4762, DIN 912, GOST 17473) or a maker's part number (PEM CLS-M4-1, FH-M4-10,
// SO-M4-10). Takes a string (decoded by the importer), returns what it was taken for, or null.
import { decodeStepName } from '../import/step-string.ts';
import type { HardwareKind } from './kinds.ts';

export interface NameMatch {
  kind: HardwareKind;
  /** nominal thread, "M4", "#8-32", "1/4-20", when the name gives it */
  size: string | null;
  /** the words of the name that said so */
  matched: string;
}

// Order matters: the more specific kinds first ("rivet nut" before "nut" and "rivet").
const WORDS: Array<[HardwareKind, RegExp]> = [
  ['self_clinching_standoff', /\b(?:SOS?|BSOS?|KFS2|KFSE|DSO|TSO)-(?:M\d(?:\.\d)?|\d{3,4})-\d+|\bpem\b.*\bstand-?off|\beinpress-?(?:abstandsbolzen|distanzbolzen)|запрессов\p{L}*\s+стойк/iu],
  ['self_clinching_stud', /\b(?:FHS?|FHA|NFH|HFH|TFH)-(?:M\d(?:\.\d)?|\d{3,4})-\d+|\bpem\b.*\bstud|\beinpress-?bolzen|запрессов\p{L}*\s+(?:шпильк|винт)/iu],
  ['self_clinching_nut', /\b(?:CLSS?|CLA|SP|PF\d*|SS?|KF2|KFE)-(?:M\d(?:\.\d)?|\d{3,4})-\d+|\bpem\b|\bself[- ]?clinch|\bclinch(?:ing)?[- ]?nut|\bpress[- ]?(?:in|fit)?[- ]?nut|\beinpress-?mutter|запрессов\p{L}*\s+гайк|гайк\p{L}*\s+запрессов/iu],
  ['rivet_nut', /\briv(?:et)?[- ]?nut|\brivnut|\bnutsert|\bblindniet-?mutter|\bnietmutter|\bécrou[- ]à[- ]sertir|\btuerca\s+remach|\bnakrętk\w*\s+nitow|гайк\p{L}*\s+(?:клепальн|заклепочн|заклёпочн|вытяжн)|клепальн\p{L}*\s+гайк|заклепк\p{L}*[- ]гайк|заклёпк\p{L}*[- ]гайк/iu],
  ['standoff', /\bstand-?offs?\b|\bspacer\b|\bhex[- ]?spacer|\babstandsbolzen|\bdistanzbolzen|\bdistanzhülse|\bentretoise|\bseparador|\bdistanziale|стойк|дистанционн/iu],
  ['threaded_insert', /\bthread(?:ed)?[- ]?insert|\bheat[- ]?set|\bhelicoil|\bgewindeeinsatz|\beinschmelzmutter|\bgewindebuchse|\binsert\b|резьбов\p{L}*\s+вставк|вставк\p{L}*\s+резьб/iu],
  ['bearing', /\bbearing|\b6[0-9]{2,3}-?(?:2RS|ZZ|2Z|RS)\b|\b(?:LM\d+UU|MR\d+ZZ)\b|\blager\b|\bkugellager|\broulement|\brodamiento|\bcuscinetto|\błożysk|подшипник/iu],
  ['washer', /\bwasher|\bscheibe\b|\bunterlegscheibe|\bbeilagscheibe|\bsicherungsscheibe|\brondelle|\barandela|\brondella|\bpodkładk|\bpodložk|шайб/iu],
  ['rivet', /\brivet|\bniete?\b|\bblindniet|\brivet\b|\brema[cc]h|\bnit\b|заклепк|заклёпк/iu],
  ['bolt', /\bbolt\b|\bhex(?:agon)?[- ]?(?:head[- ]?)?bolt|\bsechskantschraube|\bboulon|\bperno\b|шпильк|болт/iu],
  ['screw', /\bscrews?\b|\bcap[- ]?screw|\bset[- ]?screw|\bshcs\b|\bbhcs\b|\bfhcs\b|\bschraube|\bzylinderschraube|\bsenkschraube|\bgewindestift|\bvis\b|\btornillo|\bvite\b|\bśrub|\bšroub|винт|шуруп|саморез/iu],
  ['nut', /\bnuts?\b|\bhex[- ]?nut|\block[- ]?nut|\bnyloc|\bmutter\b|\bsechskantmutter|\bmuttern\b|\bécrou|\btuerca|\bdado\b|\bnakrętk|\bmatice|матиц|гайк/iu],
  ['pin', /\bdowel|\b(?:cotter|spring|roll|split|taper|clevis|dowel)[- ]?pin|\bpin\b|\bstift\b|\bzylinderstift|\bspannstift|\bgoupille|\bpasador|\bspina\b|\bkołek|штифт|шплинт/iu],
];

/**
 * Standards whose numbers name fasteners (ISO 4762 socket cap screw, DIN 934 nut, GOST 11371 washer,
 * ISO 8734 dowel...): the kind by number, for names that are only a standard and a size.
 */
const STANDARDS: Array<[HardwareKind, RegExp]> = [
  ['screw', /\b(?:ISO|EN\s*ISO)\s*-?\s*(?:4762|10642|7380|7045|7046|4017|4014|4026|4027|4028|4029|7984|7985|14579|14580|14581|14583|1207|1580|2009|2010|7049|7050)\b|\bDIN\s*-?\s*(?:912|933|931|7991|7984|7985|965|966|84|85|913|914|915|916|7500|7981|7982|6912|963|964)\b|(?:ГОСТ|GOST)\s*-?\s*(?:11738|1491|17473|17475|17474|7798|7805|7808|8878|1476|1477|10619|10621|11644|10618)\b/iu],
  ['nut', /\b(?:ISO|EN\s*ISO)\s*-?\s*(?:4032|4033|4035|7040|7042|10511|10512|8673)\b|\bDIN\s*-?\s*(?:934|936|985|982|439|6923|1587|562|557|917)\b|(?:ГОСТ|GOST)\s*-?\s*(?:5915|5927|5916|15521|5929|11860)\b/iu],
  ['washer', /\b(?:ISO|EN\s*ISO)\s*-?\s*(?:7089|7090|7091|7092|7093|7094|10673)\b|\bDIN\s*-?\s*(?:125|126|127|9021|433|6798|6916|7980|9250|137)\b|(?:ГОСТ|GOST)\s*-?\s*(?:11371|6402|6958|10450|11648|10906)\b/iu],
  ['pin', /\b(?:ISO|EN\s*ISO)\s*-?\s*(?:8734|2338|8752|13337|1234|8735)\b|\bDIN\s*-?\s*(?:6325|7|1481|94|7979|1444)\b|(?:ГОСТ|GOST)\s*-?\s*(?:3128|3129|397|24296)\b/iu],
  ['rivet', /\b(?:ISO|EN\s*ISO)\s*-?\s*(?:15977|15983|15979|1051)\b|\bDIN\s*-?\s*(?:7337|660|661)\b|(?:ГОСТ|GOST)\s*-?\s*(?:10299|10300|10303)\b/iu],
];

/** "M4", "M4x0.7", "M 4", Cyrillic "М4"; unified "#8-32", "8-32", "1/4-20". */
const METRIC = /(?:^|[^\p{L}\d])[MМ]\s?(\d{1,2}(?:[.,]\d)?)(?=$|[^\d.,]|[.,]\D|[xх×*])/u;
const UNIFIED = /(?:^|[^\d/])(#?\d{1,2}|\d\/\d{1,2})-(\d{2})\b/u;
/** PEM-style codes carry the thread as M3/M4/... or a number: CLS-M4-1, S-440-1, FH-832-8. */
const PEM_UNIFIED: Record<string, string> = { '440': '#4-40', '632': '#6-32', '832': '#8-32', '032': '#10-32', '0420': '1/4-20', '256': '#2-56' };
const PEM_CODE = /\b[A-Z]{1,5}-(\d{3,4})-\d/;

function sizeIn(name: string): string | null {
  const m = METRIC.exec(name);
  if (m) return `M${m[1].replace(',', '.')}`;
  const p = PEM_CODE.exec(name.toUpperCase());
  if (p && PEM_UNIFIED[p[1]]) return PEM_UNIFIED[p[1]];
  const u = UNIFIED.exec(name);
  if (u) return /^\d\//.test(u[1]) ? `${u[1]}-${u[2]}` : `#${u[1].replace('#', '')}-${u[2]}`;
  return null;
}

/** What the name says the part is, when it names bought-in hardware; else null. */
export function hardwareFromName(name: string): NameMatch | null {
  // a name that did not come through the importer (a caller's string) may still hold raw 8-bit bytes
  for (const text of new Set([name, decodeStepName(name)])) {
    // CAD joins words with underscores and dots ("Hex_Nut_M4", "DIN912.M4x10")
    const words = text.replace(/[_.]+/g, ' ');
    for (const [kind, re] of [...WORDS, ...STANDARDS]) {
      const m = re.exec(words);
      if (m) return { kind, size: sizeIn(words), matched: m[0].trim() };
    }
  }
  return null;
}

export interface PemPartNumber {
  /** the part number as the name writes it, "BSO-M3-8" */
  text: string;
  /** type and material letters, "BSO", "SO", "FH", "CLS" */
  series: string;
  /** standoffs: blind-threaded (B... types) or thru-threaded; null for studs and nuts */
  blind: boolean | null;
  /** studs and standoffs of a metric thread: the length code, mm; null for unified threads (their codes count fractions of an inch that differ by type) */
  length_mm: number | null;
}

/** PEM standoff and stud types, whose last number is the length code (a nut's is its shank code). */
const PEM_LENGTHED = /\b((B?SO[SA4]?|B?SON|FH[SA4]?|NFH|HFH|TFH))-(M\d(?:\.\d)?|\d{3,4})-(\d+)/i;

/** The maker's part number a name carries for a PEM standoff or stud ("BSO-M3-8ZI v2"), else null. */
export function pemPartNumber(name: string): PemPartNumber | null {
  const m = PEM_LENGTHED.exec(name.replace(/[_]+/g, ' '));
  if (!m) return null;
  const series = m[2].toUpperCase(), metric = /^M/i.test(m[3]), n = Number(m[4]);
  const standoff = /SO/.test(series);
  return {
    text: `${series}-${m[3].toUpperCase()}-${m[4]}`, series,
    blind: standoff ? series.startsWith('B') : null,
    length_mm: metric ? n : null,
  };
}
