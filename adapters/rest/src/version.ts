/** The date label of the API's shape, answered by GET /v1/health (docs/api.md "Conventions"). */
export const API_VERSION_HEADER_VALUE = '2026-09-01';
