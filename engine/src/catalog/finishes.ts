// Finishes (priced by area) and powder-coat colours (RAL, with 3D viewer hints).
import type { Finish, FinishCategory, FinishType, MaterialType, PowderCoatColor } from './types.ts';

const STEELS: MaterialType[] = ['mild_steel', 'galvanized_steel', 'chromoly_4130', 'steel_a500', 'steel_dom', 'steel_s235'];
const STAINLESS: MaterialType[] = ['stainless_304', 'stainless_316'];
const ALUMINUM: MaterialType[] = ['aluminum_5052', 'aluminum_6061', 'aluminum_6063'];
const COPPER_ALLOYS: MaterialType[] = ['copper', 'brass'];
const ALL: MaterialType[] = [...STEELS, ...STAINLESS, ...ALUMINUM, ...COPPER_ALLOYS];

/** Largest part the powder and plating lines take, mm (oven / tank length). */
const FINISH_LINE_MAX_MM = 1200;

const CATEGORY: Record<FinishType, FinishCategory> = {
  none: 'none', deburr: 'mechanical', brush: 'mechanical', powder_coat: 'coating', anodize: 'anodizing', zinc_plate: 'plating',
};

/**
 * Finishes are priced per finished part by base_price_cents + surface area (cm2) x price_per_cm2_cents,
 * times the powder colour's price_multiplier (pricing/part-price.ts reads these same fields).
 */
export function buildFinishes(): Finish[] {
  const f = (x: Omit<Finish, 'object' | 'available' | 'slug' | 'category'>): Finish => {
    const { id, name, type, ...rest } = x;
    return { id, object: 'finish', name, slug: id.replace(/^fin_/, '').replace(/_/g, '-'), category: CATEGORY[type], type, ...rest, available: true };
  };
  return [
    f({ id: 'fin_none', name: 'None (as cut)', type: 'none', processes: ['sheet_metal', 'tube_laser'], compatible_material_types: ALL, requires_color: false, base_price_cents: 0, price_per_cm2_cents: 0, lead_time_days: 0, max_part_length_mm: 100000, description: 'Raw material with laser-cut edges.' }),
    f({ id: 'fin_deburr', name: 'Deburr (tumble)', type: 'deburr', processes: ['sheet_metal', 'tube_laser'], compatible_material_types: ALL, requires_color: false, base_price_cents: 150, price_per_cm2_cents: 0.01, lead_time_days: 1, max_part_length_mm: 900, description: 'Edges deburred and broken.' }),
    f({ id: 'fin_brush', name: 'Brushed (#4 grain, one side)', type: 'brush', processes: ['sheet_metal'], compatible_material_types: [...STAINLESS, ...ALUMINUM], requires_color: false, base_price_cents: 300, price_per_cm2_cents: 0.03, lead_time_days: 1, max_part_length_mm: 1100, description: 'Linear #4 grain on the top face.' }),
    f({ id: 'fin_powder_coat', name: 'Powder coat', type: 'powder_coat', processes: ['sheet_metal', 'tube_laser'], compatible_material_types: [...STEELS, ...STAINLESS, ...ALUMINUM], requires_color: true, base_price_cents: 500, price_per_cm2_cents: 0.045, lead_time_days: 3, max_part_length_mm: FINISH_LINE_MAX_MM, description: 'Electrostatic powder, oven cured, all surfaces; pick a colour.' }),
    f({ id: 'fin_anodize_clear', name: 'Anodize Type II, clear', type: 'anodize', processes: ['sheet_metal', 'tube_laser'], compatible_material_types: ALUMINUM, requires_color: false, base_price_cents: 600, price_per_cm2_cents: 0.04, lead_time_days: 4, max_part_length_mm: FINISH_LINE_MAX_MM, description: 'Sulfuric anodize, MIL-A-8625 Type II class 1.' }),
    f({ id: 'fin_anodize_black', name: 'Anodize Type II, black', type: 'anodize', processes: ['sheet_metal', 'tube_laser'], compatible_material_types: ALUMINUM, requires_color: false, base_price_cents: 700, price_per_cm2_cents: 0.045, lead_time_days: 4, max_part_length_mm: FINISH_LINE_MAX_MM, description: 'Sulfuric anodize, MIL-A-8625 Type II class 2, black dye.' }),
    f({ id: 'fin_zinc_plate_clear', name: 'Zinc plate, clear trivalent', type: 'zinc_plate', processes: ['sheet_metal', 'tube_laser'], compatible_material_types: ['mild_steel', 'chromoly_4130', 'steel_a500', 'steel_dom', 'steel_s235'], requires_color: false, base_price_cents: 400, price_per_cm2_cents: 0.03, lead_time_days: 4, max_part_length_mm: FINISH_LINE_MAX_MM, description: 'ASTM B633 Type II zinc, clear chromate.' }),
    f({ id: 'fin_zinc_plate_yellow', name: 'Zinc plate, yellow', type: 'zinc_plate', processes: ['sheet_metal', 'tube_laser'], compatible_material_types: ['mild_steel', 'chromoly_4130', 'steel_a500', 'steel_dom', 'steel_s235'], requires_color: false, base_price_cents: 400, price_per_cm2_cents: 0.032, lead_time_days: 4, max_part_length_mm: FINISH_LINE_MAX_MM, description: 'ASTM B633 zinc, yellow chromate.' }),
  ];
}

/** [RAL, name, hex, texture, multiplier, available] */
type ColorRow = [string, string, string, PowderCoatColor['texture'], number, boolean];
const COLORS: ColorRow[] = [
  ['9005', 'Jet Black', '#0A0A0A', 'gloss', 1.0, true],
  ['9005', 'Jet Black Matte', '#0E0E10', 'matte', 1.0, true],
  ['9005', 'Black Texture', '#111111', 'texture', 1.05, true],
  ['9003', 'Signal White', '#F4F4F4', 'gloss', 1.0, true],
  ['9016', 'Traffic White', '#F6F6F6', 'gloss', 1.0, true],
  ['9010', 'Pure White', '#FFFFFF', 'satin', 1.0, true],
  ['7035', 'Light Grey', '#D7D7D7', 'gloss', 1.0, true],
  ['7016', 'Anthracite Grey', '#293133', 'matte', 1.05, true],
  ['7021', 'Black Grey', '#23282B', 'satin', 1.05, true],
  ['7037', 'Dusty Grey', '#7D7F7D', 'satin', 1.05, true],
  ['9006', 'White Aluminium', '#A5A5A5', 'satin', 1.15, true],
  ['9007', 'Grey Aluminium', '#8F8F8C', 'satin', 1.15, true],
  ['3020', 'Traffic Red', '#CC0605', 'gloss', 1.1, true],
  ['3000', 'Flame Red', '#AF2B1E', 'gloss', 1.1, true],
  ['5005', 'Signal Blue', '#1E2460', 'gloss', 1.1, true],
  ['5015', 'Sky Blue', '#2271B3', 'gloss', 1.1, true],
  ['1023', 'Traffic Yellow', '#F7B500', 'gloss', 1.15, true],
  ['1003', 'Signal Yellow', '#E5BE01', 'gloss', 1.15, true],
  ['2004', 'Pure Orange', '#F44611', 'gloss', 1.15, true],
  ['6005', 'Moss Green', '#2F4538', 'gloss', 1.1, true],
  ['6018', 'Yellow Green', '#57A639', 'gloss', 1.1, true],
  ['8017', 'Chocolate Brown', '#45322E', 'satin', 1.1, true],
  ['4005', 'Blue Lilac', '#6C4675', 'gloss', 1.2, false],
];

const VIEWER_BY_TEXTURE: Record<PowderCoatColor['texture'], { roughness: number; gloss: number }> = {
  gloss: { roughness: 0.25, gloss: 0.9 },
  satin: { roughness: 0.45, gloss: 0.5 },
  matte: { roughness: 0.7, gloss: 0.15 },
  texture: { roughness: 0.85, gloss: 0.1 },
};

export function buildPowderCoatColors(): PowderCoatColor[] {
  return COLORS.map(([ral, name, hex, texture, mult, available]) => {
    const slug = `ral-${ral}-${name.toLowerCase().replace(/[^a-z0-9]+/g, '-')}`;
    const metallic = ral === '9006' || ral === '9007';
    return {
      id: `pcc_${slug.replace(/-/g, '_')}`,
      object: 'powder_coat_color',
      name: `RAL ${ral} ${name}`,
      slug,
      ral: `RAL ${ral}`,
      hex_color: hex,
      texture,
      price_multiplier: mult,
      available,
      viewer: { base_color: hex, metalness: metallic ? 0.6 : 0.0, ...VIEWER_BY_TEXTURE[texture] },
    };
  });
}
