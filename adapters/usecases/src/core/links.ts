// Where a resource can be fetched: the contract's resources carry URLs (status_url, image_url, ...),
// but only the adapter that serves them knows their paths. The service hands the use cases the REST
// adapter's Links; the engine and the use cases deal in ids.
export type CatalogName =
  | 'materials'
  | 'tube_profiles'
  | 'finishes'
  | 'powder_coat_colors'
  | 'taps'
  | 'studs'
  | 'nuts'
  | 'standoffs';

export interface Links {
  design(designId: string): string;
  designModel(designId: string): string;
  designImage(designId: string): string;
  partModel(designId: string, partId: string, view: 'formed' | 'flat'): string;
  partImage(designId: string, partId: string): string;
  dfmPartImage(dfmId: string, partId: string): string;
  /** the picture of one step of a part's press-brake sequence (`step` from 1) */
  dfmBendStepImage(dfmId: string, partId: string, step: number): string;
  quote(quoteId: string): string;
  catalog(name: CatalogName): string;
  hardwareModel(kind: 'studs' | 'nuts' | 'standoffs', itemId: string): string;
  /** a signed download token's URL */
  download(token: string): string;
  /** the web page where a person reviews a configuration */
  reviewPage(reviewLinkId: string): string;
  cart(cartId: string): string;
  /** the web site's checkout page of a cart; the token is its capability */
  cartPage(token: string): string;
  order(orderId: string): string;
}
