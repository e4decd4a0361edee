// The catalog entries each list serves: the engine's, hardware with its 3D model's URL.
import { Type, type TObject } from '@sinclair/typebox';
import { Finish, Material, Nut, PowderCoatColor, PressBrakeDie, PressBrakeMachine, PressBrakePunch, Standoff, Stud, Tap, TubeProfile } from '@kerf/engine';
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

/** The press-brake tooling's lists, by the list's name (ListPressBrakeInput). */
export const PRESS_BRAKE_ENTRIES: Record<'brakes' | 'punches' | 'dies', TObject> = {
  brakes: PressBrakeMachine,
  punches: PressBrakePunch,
  dies: PressBrakeDie,
};
