// Starts Swagger UI on /docs over this server's /openapi.json. It is a file, not an inline
// script, so the Content-Security-Policy can forbid inline scripts; validatorUrl is off so
// the page asks no other host.
/* global SwaggerUIBundle */
window.ui = SwaggerUIBundle({
  url: "/openapi.json",
  dom_id: "#swagger-ui",
  deepLinking: true,
  validatorUrl: null,
  presets: [SwaggerUIBundle.presets.apis],
  layout: "BaseLayout",
});
