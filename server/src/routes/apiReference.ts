import { createReadStream } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { MESSAGES } from '@helpdesk/protocol';
import { NotFoundError } from '../lib/errors.js';
import { createApiDocument } from '../openapi/document.js';
import { createRouter, type FileResponse, type TextResponse } from './router.js';

/** The reference page's own policy: its scripts and styles from here, its calls to this API, nothing else. */
export const API_DOCS_CSP = [
  "default-src 'none'",
  "script-src 'self'",
  // Swagger UI styles some elements inline.
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data:",
  "connect-src 'self'",
  "font-src 'self' data:",
  "frame-ancestors 'none'",
  "base-uri 'none'",
  "form-action 'none'",
].join('; ');

const SWAGGER_UI_DIR = path.dirname(createRequire(import.meta.url).resolve('swagger-ui-dist/package.json'));

/** The installed files the page loads, by name; nothing else of the package is served. */
const ASSETS: Record<string, string> = {
  'swagger-ui.css': 'text/css; charset=utf-8',
  'swagger-ui-bundle.js': 'text/javascript; charset=utf-8',
  'favicon-32x32.png': 'image/png',
};

// Files, not inline code, so the page's CSP need not allow any. `validatorUrl: null` keeps Swagger UI
// from sending the document to its public validator. Swagger UI leaves gaps axe-core finds (unnamed
// selects, a link inside each operation's button, skipped heading levels, unfocusable scroll boxes):
// the script fills them as it renders, and the stylesheet darkens colours below 4.5:1.
const INIT_SCRIPT = `(function () {
  function label(select) {
    var row = select.closest('tr[data-param-name]');
    if (row) select.setAttribute('aria-label', row.getAttribute('data-param-name'));
    else if (select.id === 'servers') select.setAttribute('aria-label', 'Server');
  }
  function mend(root) {
    root.querySelectorAll('select:not([aria-label])').forEach(label);
    root.querySelectorAll('h3.opblock-tag:not([aria-level])').forEach(function (h) {
      h.setAttribute('aria-level', '2');
    });
    root.querySelectorAll('.models > h4:not([aria-level])').forEach(function (h) {
      h.setAttribute('aria-level', '2');
    });
    root.querySelectorAll('.opblock h4:not([aria-level])').forEach(function (h) {
      h.setAttribute('aria-level', '3');
    });
    root.querySelectorAll('.opblock-summary-control a:not([tabindex])').forEach(function (a) {
      a.setAttribute('tabindex', '-1');
    });
    root.querySelectorAll('pre.microlight:not([tabindex]), .highlight-code pre:not([tabindex])').forEach(function (pre) {
      pre.setAttribute('tabindex', '0');
    });
    root.querySelectorAll('table.responses-table[role="region"]:not([aria-label])').forEach(function (table) {
      var block = table.closest('.opblock');
      var method = block && block.querySelector('.opblock-summary-method');
      var path = block && block.querySelector('.opblock-summary-path');
      table.setAttribute('aria-label', 'Responses of ' + (method ? method.textContent : '') + ' ' + (path ? path.textContent : ''));
    });
    root.querySelectorAll('.information-container:not([role])').forEach(function (info) {
      info.setAttribute('role', 'banner');
    });
    root.querySelectorAll('.scheme-container:not([role])').forEach(function (schemes) {
      schemes.setAttribute('role', 'region');
      schemes.setAttribute('aria-label', 'Server and authorization');
    });
  }
  window.addEventListener('load', function () {
    var root = document.getElementById('reference');
    new MutationObserver(function () {
      mend(root);
    }).observe(root, { childList: true, subtree: true });
    window.ui = SwaggerUIBundle({
      url: '/api/openapi.json',
      dom_id: '#reference',
      deepLinking: false,
      validatorUrl: null,
      persistAuthorization: false,
      tryItOutEnabled: false,
    });
  });
})();
`;

const STYLESHEET = `.swagger-ui .info .title small pre.version { background: #4a5160; }
.swagger-ui .info .title small.version-stamp { background: #3d5e00; }
.swagger-ui .info .title small.version-stamp pre.version { background: transparent; }
.swagger-ui .info a.link .url, .swagger-ui .info .url { color: #1d5fa8; }
.swagger-ui .parameter__in, .swagger-ui .parameter__deprecated, .swagger-ui .prop-format { color: #595959; }
.swagger-ui .json-schema-2020-12-expand-deep-button,
.swagger-ui .json-schema-2020-12-keyword__name--extension,
.swagger-ui .json-schema-2020-12-keyword__value--extension,
.swagger-ui .json-schema-2020-12-json-viewer__name--extension,
.swagger-ui .json-schema-2020-12-json-viewer__value--extension { color: #595959; }
.swagger-ui .json-schema-2020-12__constraint--string { background-color: #8a5a00; }
.swagger-ui .btn.authorize { color: #17683f; border-color: #17683f; }
.swagger-ui .btn.authorize svg { fill: #17683f; }
.swagger-ui .opblock.opblock-get .opblock-summary-method { background: #1f5f9e; }
.swagger-ui .opblock.opblock-post .opblock-summary-method { background: #17683f; }
.swagger-ui .opblock.opblock-put .opblock-summary-method { background: #8a4b12; }
.swagger-ui .opblock.opblock-delete .opblock-summary-method { background: #b3261e; }
`;

/** The page's own files beside the installed ones. */
const OWN_FILES: Record<string, { type: string; body: string } | undefined> = {
  'init.js': { type: 'text/javascript; charset=utf-8', body: INIT_SCRIPT },
  'reference.css': { type: 'text/css; charset=utf-8', body: STYLESHEET },
};

const PAGE = `<!doctype html>
<html lang="en">
  <head>
    <meta charset="utf-8" />
    <meta name="viewport" content="width=device-width, initial-scale=1" />
    <title>API reference · HelpDesk System</title>
    <link rel="icon" type="image/png" href="/api/docs/favicon-32x32.png" />
    <link rel="stylesheet" href="/api/docs/swagger-ui.css" />
    <link rel="stylesheet" href="/api/docs/reference.css" />
  </head>
  <body>
    <div id="reference"></div>
    <script src="/api/docs/swagger-ui-bundle.js"></script>
    <script src="/api/docs/init.js"></script>
  </body>
</html>
`;

/** docs/api.md#openapi: the document, public, and the interactive reference over it. */
export function apiReferenceRoutes() {
  const router = createRouter();
  let document: string | undefined;

  router.get('/openapi.json', (ctx) => {
    // Made on first ask: a process that never serves it never pays for it.
    document ??= JSON.stringify(createApiDocument());
    ctx.type = 'application/json';
    ctx.body = document satisfies TextResponse;
  });

  router.get('/docs', (ctx) => {
    ctx.set('Content-Security-Policy', API_DOCS_CSP);
    ctx.type = 'html';
    ctx.body = PAGE satisfies TextResponse;
  });

  router.get('/docs/:file', (ctx) => {
    const { file = '' } = ctx.params;
    ctx.set('Cache-Control', 'public, max-age=86400');
    const own = OWN_FILES[file];
    if (own) {
      ctx.type = own.type;
      ctx.body = own.body satisfies TextResponse;
      return;
    }
    const type = Object.hasOwn(ASSETS, file) ? ASSETS[file] : undefined;
    if (!type) throw new NotFoundError(MESSAGES.http.notFound);
    ctx.set('Content-Type', type);
    ctx.body = createReadStream(path.join(SWAGGER_UI_DIR, file)) satisfies FileResponse;
  });

  return router;
}
