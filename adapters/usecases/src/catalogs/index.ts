export { getHardwareModelUrl, listCatalog, searchCatalog } from './catalogs.ts';
