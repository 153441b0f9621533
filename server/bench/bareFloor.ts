import { createServer, type Server } from 'node:http';
import Koa from 'koa';

/**
 * The floor every API figure is compared with: Koa answering GET /bare with precomputed bytes, no
 * auth, no database, no JSON encoding. What a call costs above it is the app's own work.
 */
export function bareFloorServer(body: Buffer): Server {
  const app = new Koa();
  app.use((ctx) => {
    if (ctx.method === 'GET' && ctx.path === '/bare') {
      ctx.type = 'application/json';
      ctx.body = body;
    }
  });
  const handle = app.callback();
  return createServer((req, res) => void handle(req, res));
}
