export { getHardwareModelUrl, listCatalog, listPressBrake, searchCatalog } from './catalogs.ts';
export { rankByThickness, thicknessInQuery, type WantedThickness } from './rank.ts';
