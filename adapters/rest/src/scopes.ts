// Which OAuth scope each operation needs, for the OpenAPI document's security
// requirements and the table of docs/agents.md. The use cases enforce these (requireScope); test/oauth-scopes
// checks that every operation is listed here and that the API answers as documented.
import type { Scope } from '@kerf/usecases';

/** A scope, 'any' (every credential: catalogs, the account summary), 'operator' (operator API keys), 'api_key' (API keys only: the dropship API), or 'public' (no credential). */
export type OperationAccess = Scope | Scope[] | 'any' | 'operator' | 'api_key' | 'public';

const OPERATION_SCOPES: Record<string, OperationAccess> = {
  'GET /v1/materials': 'any',
  'GET /v1/tube-profiles': 'any',
  'GET /v1/finishes': 'any',
  'GET /v1/powder-coat-colors': 'any',
  'GET /v1/hardware/taps': 'any',
  'GET /v1/hardware/studs': 'any',
  'GET /v1/hardware/nuts': 'any',
  'GET /v1/hardware/standoffs': 'any',
  'GET /v1/hardware/{kind}/{item_id}/model': 'any',
  'GET /v1/press-brake/brakes': 'any',
  'GET /v1/press-brake/punches': 'any',
  'GET /v1/press-brake/dies': 'any',
  'GET /v1/account': 'any',
  'POST /v1/analyze': 'designs',
  'GET /v1/designs/{design_id}': 'designs',
  'GET /v1/designs/{design_id}/model': 'designs',
  'GET /v1/designs/{design_id}/image': 'designs',
  'GET /v1/designs/{design_id}/parts/{part_id}/model': 'designs',
  'GET /v1/designs/{design_id}/parts/{part_id}/step': 'designs',
  'GET /v1/designs/{design_id}/parts/{part_id}/image': 'designs',
  'POST /v1/review-links': 'designs',
  'GET /v1/review-links/{review_link_id}': 'designs',
  'POST /v1/dfm': 'dfm',
  'GET /v1/dfm/{dfm_id}': 'dfm',
  'GET /v1/dfm/{dfm_id}/parts/{part_id}/file': 'dfm',
  'GET /v1/dfm/{dfm_id}/parts/{part_id}/image': 'dfm',
  'GET /v1/dfm/{dfm_id}/parts/{part_id}/bend-steps/{step}/image': 'dfm',
  'GET /v1/dfm/{dfm_id}/nest': 'dfm',
  'POST /v1/quotes': 'quotes',
  'GET /v1/quotes/{quote_id}': 'quotes',
  'POST /v1/carts': 'carts',
  'GET /v1/carts/{cart_id}': 'carts',
  'PATCH /v1/carts/{cart_id}': 'carts',
  'POST /v1/carts/{cart_id}/pay': ['carts', 'payments'],
  'GET /v1/orders': 'orders',
  'GET /v1/orders/{order_id}': 'orders',
  'GET /v1/orders/{order_id}/production-files': 'orders',
  'GET /v1/webhook-endpoints': 'webhooks',
  'POST /v1/webhook-endpoints': 'webhooks',
  'GET /v1/webhook-endpoints/{endpoint_id}': 'webhooks',
  'DELETE /v1/webhook-endpoints/{endpoint_id}': 'webhooks',
  'GET /v1/webhook-endpoints/{endpoint_id}/deliveries': 'webhooks',
  'POST /v1/webhook-endpoints/{endpoint_id}/roll-secret': 'webhooks',
  'POST /v1/webhook-endpoints/{endpoint_id}/deliveries/{delivery_id}/redeliver': 'webhooks',
  'GET /v1/admin/orders/{order_id}': 'operator',
  'POST /v1/admin/orders/{order_id}/status': 'operator',
  'GET /v1/dropship/items': 'api_key',
  'POST /v1/dropship/orders': 'api_key',
  'GET /v1/dropship/orders': 'api_key',
  'GET /v1/dropship/orders/{order_id}': 'api_key',
  'GET /v1/dropship/webhook-endpoints': 'api_key',
  'POST /v1/dropship/webhook-endpoints': 'api_key',
  'DELETE /v1/dropship/webhook-endpoints/{endpoint_id}': 'api_key',
  'POST /v1/admin/dropship/accounts/{account_id}/status': 'operator',
  'POST /v1/admin/dropship/items': 'operator',
  'POST /v1/admin/dropship/items/{item_id}/approve': 'operator',
  'GET /v1/admin/dropship/orders/{order_id}': 'operator',
  'POST /v1/admin/dropship/orders/{order_id}/release': 'operator',
  'POST /v1/admin/dropship/orders/{order_id}/status': 'operator',
  'GET /v1/health': 'public',
  'GET /v1/downloads/{token}': 'public',
};

interface OpenApiDoc {
  components?: { securitySchemes?: Record<string, unknown> };
  paths?: Record<string, Record<string, { security?: unknown[] } & Record<string, unknown>>>;
}

/**
 * Security requirements per operation: an API key (bearer) always works; an OAuth access token
 * needs the scopes listed under `oauth2` (none for 'any'); operator and public routes say so.
 */
export function applySecurity(doc: OpenApiDoc, baseUrl: string): void {
  doc.components ??= {};
  doc.components.securitySchemes = {
    ...doc.components.securitySchemes,
    bearer: { type: 'http', scheme: 'bearer', description: 'An API key (every scope) or an OAuth access token (the scopes its connection granted).' },
    oauth2: {
      type: 'oauth2',
      description: 'Agents connect with the device flow (client_id svc-agent) or authorization code + PKCE (S256); see /.well-known/oauth-authorization-server.',
      flows: {
        authorizationCode: {
          authorizationUrl: `${baseUrl}/v1/oauth/authorize`,
          tokenUrl: `${baseUrl}/v1/oauth/token`,
          refreshUrl: `${baseUrl}/v1/oauth/token`,
          scopes: {
            designs: 'Upload and read designs, their files and review links', dfm: 'DFM reports and production files', quotes: 'Quotes',
            carts: 'Carts', orders: 'Orders', webhooks: 'Webhook endpoints', payments: 'Pay carts with the saved card (with carts)',
          },
        },
      },
    },
  };
  for (const [path, ops] of Object.entries(doc.paths ?? {})) {
    for (const [method, op] of Object.entries(ops)) {
      const access = OPERATION_SCOPES[`${method.toUpperCase()} ${path}`];
      if (access === undefined) continue;
      if (access === 'public') op.security = [];
      else if (access === 'operator' || access === 'api_key') op.security = [{ bearer: [] }];
      else op.security = [{ bearer: [] }, { oauth2: access === 'any' ? [] : Array.isArray(access) ? access : [access] }];
    }
  }
}
