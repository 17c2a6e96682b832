// Starts Swagger UI on the contract named by the page (data-spec-url); no validator badge, so
// nothing is fetched from outside this mock. On the deposit v1 page, try-it-out-signing.js (loaded
// before this) signs each "Try it out" request.
const root = document.getElementById('swagger-ui');
window.ui = SwaggerUIBundle({
  url: root.dataset.specUrl,
  dom_id: '#swagger-ui',
  presets: [SwaggerUIBundle.presets.apis],
  layout: 'BaseLayout',
  validatorUrl: null,
  deepLinking: true,
  tryItOutEnabled: false,
  requestInterceptor: (request) => (window.signTryItOut === undefined ? request : window.signTryItOut(request)),
});
