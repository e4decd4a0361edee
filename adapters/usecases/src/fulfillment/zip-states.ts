// Which state a US ZIP code is in, by its first three digits (the USPS sectional-centre prefix;
// docs/api.md "Shipping and tax"). Tax and shipping follow the ZIP code, so a ship_to whose state does not
// match it is refused: otherwise typing another state's code beside an Austin ZIP would pick that
// state's tax. Ranges are inclusive; a prefix the USPS leaves unassigned inside a range counts for
// that range's state, and prefixes outside the 50 states and DC (Puerto Rico, the Virgin Islands,
// Pacific territories, military APO/FPO) have no state here.
const PREFIX_RANGES: ReadonlyArray<readonly [number, number, string]> = [
  [5, 5, 'NY'], [10, 27, 'MA'], [28, 29, 'RI'], [30, 38, 'NH'], [39, 49, 'ME'], [50, 54, 'VT'], [55, 55, 'MA'],
  [56, 59, 'VT'], [60, 69, 'CT'], [70, 89, 'NJ'], [100, 149, 'NY'], [150, 196, 'PA'], [197, 199, 'DE'],
  [200, 200, 'DC'], [201, 201, 'VA'], [202, 205, 'DC'], [206, 219, 'MD'], [220, 246, 'VA'], [247, 268, 'WV'],
  [270, 289, 'NC'], [290, 299, 'SC'], [300, 319, 'GA'], [320, 339, 'FL'], [341, 349, 'FL'], [350, 369, 'AL'],
  [370, 385, 'TN'], [386, 397, 'MS'], [398, 399, 'GA'], [400, 427, 'KY'], [430, 459, 'OH'], [460, 479, 'IN'],
  [480, 499, 'MI'], [500, 528, 'IA'], [530, 549, 'WI'], [550, 567, 'MN'], [569, 569, 'DC'], [570, 577, 'SD'],
  [580, 588, 'ND'], [590, 599, 'MT'], [600, 629, 'IL'], [630, 658, 'MO'], [660, 679, 'KS'], [680, 693, 'NE'],
  [700, 715, 'LA'], [716, 729, 'AR'], [730, 732, 'OK'], [733, 733, 'TX'], [734, 749, 'OK'], [750, 799, 'TX'],
  [800, 816, 'CO'], [820, 831, 'WY'], [832, 838, 'ID'], [840, 847, 'UT'], [850, 865, 'AZ'], [870, 884, 'NM'],
  [885, 885, 'TX'], [889, 898, 'NV'], [900, 961, 'CA'], [967, 968, 'HI'], [970, 979, 'OR'], [980, 994, 'WA'],
  [995, 999, 'AK'],
];

/** The state of a 5-digit (or ZIP+4) code, or null when its prefix is not in one of the 50 states or DC. */
export function stateOfZip(zip: string): string | null {
  const prefix = Number(zip.slice(0, 3));
  if (!/^\d{3}/.test(zip)) return null;
  for (const [lo, hi, state] of PREFIX_RANGES) if (prefix >= lo && prefix <= hi) return state;
  return null;
}
