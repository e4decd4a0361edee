// Where the REST adapter serves each resource: the use cases' Links, so the URLs in designs, DFM
// reports, quotes and catalogs are this adapter's paths. Its own entry point (@kerf/rest/links),
// so the CLI can name resources without loading fastify.
import type { CatalogName, Links } from '@kerf/usecases';

/** Where the 307 redirects point: the signed token is the credential. */
export const DOWNLOAD_PATH = '/v1/downloads';

const CATALOG_PATHS: Record<CatalogName, string> = {
  materials: '/v1/materials', tube_profiles: '/v1/tube-profiles', finishes: '/v1/finishes', powder_coat_colors: '/v1/powder-coat-colors',
  taps: '/v1/hardware/taps', studs: '/v1/hardware/studs', nuts: '/v1/hardware/nuts', standoffs: '/v1/hardware/standoffs',
};

/** `baseUrl`: the public base URL without a trailing slash ('' gives paths). */
export function restLinks(baseUrl: string, websiteUrl = baseUrl): Links {
  const base = baseUrl.replace(/\/+$/, '');
  const design = (id: string): string => `${base}/v1/designs/${id}`;
  return {
    design,
    designModel: (id) => `${design(id)}/model`,
    designImage: (id) => `${design(id)}/image`,
    partModel: (id, partId, view) => `${design(id)}/parts/${partId}/model${view === 'flat' ? '?view=flat' : ''}`,
    partImage: (id, partId) => `${design(id)}/parts/${partId}/image`,
    dfmPartImage: (dfmId, partId) => `${base}/v1/dfm/${dfmId}/parts/${partId}/image`,
    dfmBendStepImage: (dfmId, partId, step) => `${base}/v1/dfm/${dfmId}/parts/${partId}/bend-steps/${step}/image`,
    quote: (id) => `${base}/v1/quotes/${id}`,
    catalog: (name) => `${base}${CATALOG_PATHS[name]}`,
    hardwareModel: (kind, itemId) => `${base}/v1/hardware/${kind}/${itemId}/model`,
    download: (token) => `${base}${DOWNLOAD_PATH}/${token}`,
    reviewPage: (id) => `${websiteUrl.replace(/\/+$/, '')}/review/${id}`,
    cart: (id) => `${base}/v1/carts/${id}`,
    cartPage: (token) => `${websiteUrl.replace(/\/+$/, '')}/checkout/${token}`,
    order: (id) => `${base}/v1/orders/${id}`,
  };
}
