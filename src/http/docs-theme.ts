/**
 * The API reference (/docs, Swagger UI) on a phone. Swagger UI's page has no viewport meta, so a
 * phone lays it out 980 px wide and shrinks it to an unreadable size; its own styles assume a
 * desktop. The theme adds the viewport (a script of our own, allowed by the CSP's script-src
 * 'self') and lets each operation wrap at a phone's width.
 */

/** Sets the viewport to the device's width; Chromium and Safari apply a meta added after load. */
const VIEWPORT_JS = `(function () {
  if (document.querySelector('meta[name="viewport"]')) return;
  var m = document.createElement('meta');
  m.name = 'viewport';
  m.content = 'width=device-width, initial-scale=1';
  document.head.appendChild(m);
})();
`;

/** Below 600 px: less padding, operations that wrap, code and tables that scroll inside their box. */
const PHONE_CSS = `@media (max-width: 600px) {
  .swagger-ui .wrapper { padding: 0 10px; }
  .swagger-ui .info { margin: 16px 0; }
  .swagger-ui .info .title { font-size: 26px; }
  .swagger-ui .info .title small { display: inline-block; }
  .swagger-ui .opblock-tag { font-size: 18px; padding: 8px 4px; }
  .swagger-ui .opblock .opblock-summary { flex-wrap: wrap; row-gap: 4px; }
  .swagger-ui .opblock .opblock-summary-control { flex-wrap: wrap; min-width: 0; }
  .swagger-ui .opblock .opblock-summary-path,
  .swagger-ui .opblock .opblock-summary-path__deprecated { flex: 1 1 0; min-width: 0; max-width: none; word-break: break-all; font-size: 14px; }
  .swagger-ui .opblock .opblock-summary-description { flex: 1 1 100%; font-size: 14px; }
  .swagger-ui .opblock-body, .swagger-ui .opblock-section, .swagger-ui .parameters-container,
  .swagger-ui .responses-wrapper, .swagger-ui .table-container { max-width: 100%; overflow-x: auto; }
  .swagger-ui .opblock-body pre, .swagger-ui .highlight-code, .swagger-ui .microlight { max-width: 100%; overflow-x: auto; word-break: normal; }
  .swagger-ui table { display: block; max-width: 100%; overflow-x: auto; }
  .swagger-ui .parameters-col_description { width: auto; }
  .swagger-ui .parameters-col_description input, .swagger-ui .parameters-col_description select, .swagger-ui textarea { max-width: 100%; }
  .swagger-ui .model-box, .swagger-ui section.models { max-width: 100%; overflow-x: auto; }
  .swagger-ui .scheme-container { padding: 12px 0; }
}
`;

/** The `theme` option of @fastify/swagger-ui. */
export const DOCS_THEME = {
  title: 'zcode-hub API',
  js: [{ filename: 'phone-viewport.js', content: VIEWPORT_JS }],
  css: [{ filename: 'phone.css', content: PHONE_CSS }],
};
