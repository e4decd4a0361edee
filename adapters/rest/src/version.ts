/** Interface version label of interface.md section 9. */
export const API_VERSION_HEADER_VALUE = '2026-09-01';
