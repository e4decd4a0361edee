// The catalog entries each list serves: the engine's, hardware with its 3D model's URL.
import { Type, type TObject } from '@sinclair/typebox';
import { Finish, Material, Nut, PowderCoatColor, Standoff, Stud, Tap, TubeProfile } from '@kerf/engine';
import type { CatalogName } from '../links.ts';

// where the contract has always shown it: after `available`
const withModel = (entry: TObject) => Type.Object({ ...entry.properties, model_url: Type.String({ description: 'The item\'s 3D model (GLB; 307 to the file).' }) });

export const CATALOG_ENTRIES: Record<CatalogName, TObject> = {
  materials: Material,
  tube_profiles: TubeProfile,
  finishes: Finish,
  powder_coat_colors: PowderCoatColor,
  taps: Tap,
  studs: withModel(Stud),
  nuts: withModel(Nut),
  standoffs: withModel(Standoff),
};
