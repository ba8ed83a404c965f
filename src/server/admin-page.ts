/**
 * The admin page at `/ui`: the catalog's administration and the registry's monitor in one page
 * (bundles and tools with enable/disable toggles, search on the search route, a tool's detail with
 * its gram, a tester whose form is generated from `argSchema`, a filter for agent-created tools,
 * recent usage, the calls waiting for approval with approve / approve with changes / deny), and what
 * a catalog's owner writes there: bundles and tools created, edited (a new version, in a gram editor
 * highlighted by the TextMate grammar of editors/vscode, checked by the server as one types) and
 * deleted after a confirmation, a tool's versions side by side. Static files (src/server/ui/ and
 * the grammar), served as they are: no build step, no dependency; the page calls the service's own
 * REST routes, with the same token and scopes as any client.
 *
 * The files are public (they hold no data); on a server with tokens, the page asks for one and sends
 * it on its API calls. A strict Content-Security-Policy allows only the page's own script and
 * style, and calls to its own origin.
 */
import { ServiceCodes } from './codes.js';
import { problem, problemResponse } from './problem.js';
import { UI_ASSETS } from './ui-assets.js';
import type { Mount } from './service.js';

const TYPES: Readonly<Record<string, string>> = {
  'index.html': 'text/html; charset=utf-8',
  'editor.js': 'text/javascript; charset=utf-8',
  'app.js': 'text/javascript; charset=utf-8',
  'gram.tmLanguage.json': 'application/json; charset=utf-8',
  'style.css': 'text/css; charset=utf-8',
};

const HEADERS = {
  'content-security-policy':
    "default-src 'none'; script-src 'self'; style-src 'self'; connect-src 'self'; img-src 'self' data:; form-action 'none'; frame-ancestors 'none'; base-uri 'none'",
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'no-referrer',
  'cache-control': 'no-cache',
};

/** The page's handler, for `mounts` (at `/ui`). */
export const adminPage = (path = '/ui'): Mount => {
  const prefix = path.replace(/\/+$/, '');
  return {
    path: prefix,
    public: true,
    handler: (request: Request): Response => {
      const url = new URL(request.url);
      if (request.method !== 'GET' && request.method !== 'HEAD') {
        return problemResponse(problem(ServiceCodes.METHOD_NOT_ALLOWED, `${request.method} is not allowed on ${prefix}; allowed: GET, HEAD`), {
          allow: 'GET, HEAD',
        });
      }
      const rest = url.pathname.slice(prefix.length).replace(/^\/+/, '');
      const file = rest === '' || rest === 'index.html' ? 'index.html' : rest;
      // own keys only: `constructor` and `__proto__` are no files
      const body = Object.hasOwn(UI_ASSETS, file) ? UI_ASSETS[file] : undefined;
      const type = Object.hasOwn(TYPES, file) ? TYPES[file] : undefined;
      if (body === undefined || type === undefined)
        return problemResponse(problem(ServiceCodes.NOT_FOUND, `no page ${url.pathname.slice(0, 200)}; the admin page is ${prefix}`));
      return new Response(request.method === 'HEAD' ? null : body, { status: 200, headers: { 'content-type': type, ...HEADERS } });
    },
  };
};
