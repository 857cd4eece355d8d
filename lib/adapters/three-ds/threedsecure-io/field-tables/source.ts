/**
 * Where the field tables of this folder come from. They are a transcription (names, inclusion,
 * lengths, patterns, enums, formats; no prose) of 3dsecure.io's published API reference, the
 * public repository clearhaus/3DSv2-api-documentation at the commit below:
 *
 *   source/_static/preauth.html, crd.html            /preauth input and output (CRD)
 *   source/_static/areq_220.html, areq_231.html      /auth input (AReq)
 *   source/_static/ares_220.html, ares_231.html      /auth output (ARes)
 *   source/_static/postauth.html                     /postauth input
 *   source/_static/rreq_220.html, rreq_231.html      /postauth output (RReq)
 *   source/_static/creq.html                         CReq (browser → ACS)
 *   source/_static/cres_220.html, cres_231.html      final CRes (ACS → notification URL)
 *   source/_static/erro_220.html, erro_231.html      Erro
 *
 * Only the rows of the browser channel (deviceChannel 02) are kept; a table's "inclusion" is
 * the one it gives for a browser payment (messageCategory 01). Rows the documentation shows
 * only in an example are marked `documentedBy`. The documentation itself is not committed
 * here: `npm run three-ds:check-tables -- <path to a checkout of it>` compares these tables
 * with it (infra/three-ds/check-field-tables.ts), a dev-time check, not run in CI.
 */
export const FIELD_TABLES_SOURCE = {
  repository: 'clearhaus/3DSv2-api-documentation',
  commit: '4d0009dc92fd0df451b8d928330abeac0154ab56',
  commitDate: '2026-05-12',
} as const;
