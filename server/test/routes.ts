import { API_ROUTERS } from '../src/app.js';
import { authentication, isRoleGate } from '../src/middleware/auth.js';
import { createLimiters, DEFAULT_RATE_LIMITS } from '../src/middleware/rateLimit.js';
import type { RouteDeps } from '../src/routes/deps.js';
import type { HelpdeskServer } from '../src/server.js';
import { parseSettings } from '../src/settings.js';

/** Each route the server registers as `METHOD /path` (without /api), HEAD aside, with its middleware. */
export function routeLayers(server: HelpdeskServer): { route: string; stack: unknown[] }[] {
  const limiters = createLimiters(DEFAULT_RATE_LIMITS);
  const deps: RouteDeps = {
    services: server.services,
    auth: authentication(server.services.accounts, server.services.apiTokens, limiters),
    limiters,
    settings: { ...parseSettings({}), agentSignup: 'open' },
    database: server.database,
  };
  return API_ROUTERS.flatMap((routes) =>
    routes(deps).stack.flatMap((layer) =>
      layer.methods.filter((m) => m !== 'HEAD').map((method) => ({ route: `${method} ${String(layer.path)}`, stack: layer.stack })),
    ),
  );
}

/** The routes whose middleware passes `keep`, each once. */
const routesWhere = (server: HelpdeskServer, keep: (stack: unknown[]) => boolean): string[] => [
  ...new Set(routeLayers(server).flatMap(({ route, stack }) => (keep(stack) ? [route] : []))),
];

/** Every route the server registers. */
export const registeredRoutes = (server: HelpdeskServer): string[] => routesWhere(server, () => true);

/** The routes behind a role gate (`auth.allow`): staff-only and admin-only calls. */
export const roleGatedRoutes = (server: HelpdeskServer): string[] => routesWhere(server, (stack) => stack.some(isRoleGate));
