export { getHardwareModelUrl, listCatalog, searchCatalog } from './catalogs.ts';
export { rankByThickness, thicknessInQuery, type WantedThickness } from './rank.ts';
