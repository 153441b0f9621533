import { API_ROUTERS } from '../src/app.js';
import { authentication } from '../src/middleware/auth.js';
import { createLimiters, DEFAULT_RATE_LIMITS } from '../src/middleware/rateLimit.js';
import type { RouteDeps } from '../src/routes/deps.js';
import type { HelpdeskServer } from '../src/server.js';

/** `METHOD /path` (without /api) of every route the server registers, HEAD aside. */
export function registeredRoutes(server: HelpdeskServer): string[] {
  const deps: RouteDeps = {
    services: server.services,
    auth: authentication(server.services.accounts),
    limiters: createLimiters(DEFAULT_RATE_LIMITS),
    settings: { agentSignup: 'open' },
    database: server.database,
  };
  const registered = new Set<string>();
  for (const routes of API_ROUTERS) {
    for (const layer of routes(deps).stack) {
      for (const method of layer.methods.filter((m) => m !== 'HEAD')) registered.add(`${method} ${String(layer.path)}`);
    }
  }
  return [...registered];
}
