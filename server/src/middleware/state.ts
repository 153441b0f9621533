import type { ParameterizedContext } from 'koa';
import type { Logger } from '../lib/logger.js';
import type { Actor } from '../lib/actor.js';

/** What middleware leaves on ctx.state for the handlers. */
export interface AppState {
  actor?: Actor;
  log: Logger;
}
export type AppContext = ParameterizedContext<AppState>;
