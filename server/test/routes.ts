import { API_ROUTERS } from '../src/app.js';
import { authentication, isRoleGate } from '../src/middleware/auth.js';
import { createLimiters, DEFAULT_RATE_LIMITS } from '../src/middleware/rateLimit.js';
import type { RouteDeps } from '../src/routes/deps.js';
import type { HelpdeskServer } from '../src/server.js';
import { parseSettings } from '../src/settings.js';

/** `METHOD /path` (without /api) of the routes the server registers, HEAD aside, whose layer passes `keep`. */
function routesWhere(server: HelpdeskServer, keep: (stack: unknown[]) => boolean): string[] {
  const limiters = createLimiters(DEFAULT_RATE_LIMITS);
  const deps: RouteDeps = {
    services: server.services,
    auth: authentication(server.services.accounts, server.services.apiTokens, limiters),
    limiters,
    settings: { ...parseSettings({}), agentSignup: 'open' },
    database: server.database,
  };
  const registered = new Set<string>();
  for (const routes of API_ROUTERS) {
    for (const layer of routes(deps).stack) {
      if (!keep(layer.stack)) continue;
      for (const method of layer.methods.filter((m) => m !== 'HEAD')) registered.add(`${method} ${String(layer.path)}`);
    }
  }
  return [...registered];
}

/** Every route the server registers. */
export const registeredRoutes = (server: HelpdeskServer): string[] => routesWhere(server, () => true);

/** The routes behind a role gate (`auth.allow`): staff-only and admin-only calls. */
export const roleGatedRoutes = (server: HelpdeskServer): string[] => routesWhere(server, (stack) => stack.some(isRoleGate));
