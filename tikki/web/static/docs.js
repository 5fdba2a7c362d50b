// @ts-check
// Starts Swagger UI on /docs over this server's /openapi.json. It is a file, not an inline
// script, so the Content-Security-Policy can forbid inline scripts; validatorUrl is off so
// the page asks no other host.
/** Swagger UI's bundle, which the page loads before this script. @type {any} */
const bundle = /** @type {any} */ (globalThis).SwaggerUIBundle;
/** @type {any} */ (window).ui = bundle({
  url: "/openapi.json",
  dom_id: "#swagger-ui",
  deepLinking: true,
  validatorUrl: null,
  presets: [bundle.presets.apis],
  layout: "BaseLayout",
});
