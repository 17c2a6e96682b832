// Starts Swagger UI on the contract named by the page (data-spec-url); no validator badge, so
// nothing is fetched from outside this mock.
const root = document.getElementById('swagger-ui');
window.ui = SwaggerUIBundle({
  url: root.dataset.specUrl,
  dom_id: '#swagger-ui',
  presets: [SwaggerUIBundle.presets.apis],
  layout: 'BaseLayout',
  validatorUrl: null,
  deepLinking: true,
  tryItOutEnabled: false,
});
