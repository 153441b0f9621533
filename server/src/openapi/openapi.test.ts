/**
 * The API reference (docs/api.md#openapi): the document lists exactly the routes the router has, with
 * the access their middleware enforces, and real answers match the schemas it documents.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MESSAGES } from '@helpdesk/protocol';
import type { z } from 'zod';
import { gateOf } from '../middleware/auth.js';
import { API_DOCS_CSP } from '../routes/apiReference.js';
import { ADMIN_ENV, createCast, createTicket } from '../../test/factories.js';
import { ifSetUp } from '../../test/hooks.js';
import { registeredRoutes, routeLayers } from '../../test/routes.js';
import { startTestServer, type TestServer } from '../../test/server.js';
import { documentPath } from './document.js';
import { OPERATIONS, type Access } from './operations.js';

let t: TestServer;
beforeAll(async () => {
  t = await startTestServer(ADMIN_ENV);
});
afterAll(async () => ifSetUp(t)?.close());

/** The access a route's middleware enforces, read off the router like the authorization matrix does. */
function enforcedAccess(server: TestServer['server']): Map<string, Access> {
  return new Map(
    routeLayers(server).map(({ route, stack }) => {
      const gates = stack.map(gateOf).filter((gate) => gate !== undefined);
      const refusals = gates.flatMap((gate) => (gate.kind === 'role' ? [gate.refusal] : []));
      const kinds = new Set(gates.map((gate) => gate.kind));
      const access: Access = refusals.includes(MESSAGES.http.adminOnly)
        ? 'admin'
        : refusals.length > 0
          ? 'staff'
          : kinds.has('required')
            ? 'signedIn'
            : kinds.has('optional')
              ? 'optional'
              : 'public';
      return [route, access];
    }),
  );
}

describe('the OpenAPI document', () => {
  it('lists every route the router has, and no other', async () => {
    const routes = registeredRoutes(t.server).sort();
    expect(Object.keys(OPERATIONS).sort()).toEqual(routes);

    const res = await t.api.get('/openapi.json');
    expect(res.status).toBe(200);
    const documented = Object.entries(res.body.paths as Record<string, Record<string, unknown>>).flatMap(([path, item]) =>
      Object.keys(item).map((method) => `${method.toUpperCase()} ${path}`),
    );
    expect(documented.sort()).toEqual(routes.map((route) => route.replace(/ (.*)$/, (_, path: string) => ` ${documentPath(path)}`)).sort());
  });

  it('gives each route the access its middleware enforces', () => {
    const enforced = enforcedAccess(t.server);
    const mismatches = Object.entries(OPERATIONS)
      .filter(([key, operation]) => enforced.get(key) !== operation.access)
      .map(([key, operation]) => `${key}: documented ${operation.access}, enforced ${enforced.get(key)}`);
    expect(mismatches).toEqual([]);
  });

  it('is OpenAPI 3.1 with both ways to sign in and each call’s token scope', async () => {
    const { body } = await t.api.get('/openapi.json');
    expect(body.openapi).toBe('3.1.0');
    expect(Object.keys(body.components.securitySchemes).sort()).toEqual(['apiToken', 'session']);
    const list = body.paths['/tickets'].get;
    expect(list.security).toEqual([{ session: [] }, { apiToken: ['tickets:read'] }]);
    expect(list['x-token-scope']).toBe('tickets:read');
    // A call a token may never make lists the session alone; a public one none.
    expect(body.paths['/tokens'].post.security).toEqual([{ session: [] }]);
    expect(body.paths['/auth/login'].post.security).toEqual([]);
    expect(body.paths['/users'].get.security).toEqual([{ session: [] }, { apiToken: ['admin'] }]);
    // Requests in their input form: a default is optional to send.
    const created = body.paths['/tokens'].post.requestBody.content['application/json'].schema;
    expect(created.required).toEqual(['name', 'scopes']);
    expect(body.paths['/tickets/{id}'].get.responses['404'].content['application/json'].schema.$ref).toBe('#/components/schemas/Error');
    // The refusals a public call makes of its own, the 409 that carries the ticket, the CSV's type.
    expect(Object.keys(body.paths['/auth/login'].post.responses)).toEqual(expect.arrayContaining(['401', '403']));
    expect(Object.keys(body.paths['/auth/register'].post.responses)).toEqual(expect.arrayContaining(['401', '403', '409']));
    const conflict = body.paths['/tickets/{id}'].put.responses['409'].content['application/json'].schema;
    expect(conflict.required).toEqual(expect.arrayContaining(['success', 'message', 'ticket']));
    expect(Object.keys(body.paths['/reports/tickets.csv'].get.responses['200'].content)).toEqual(['text/csv']);
  });
});

describe('real answers', () => {
  /** The schema OPERATIONS documents for a call's success. */
  const answerOf = (key: string): z.ZodType => {
    const answer = OPERATIONS[key]?.answer;
    if (!answer || typeof answer === 'string') throw new Error(`${key} documents no JSON answer`);
    return answer;
  };

  it('match the documented schemas', async () => {
    const { admin, agent, owner } = await createCast(t);
    const ticket = await createTicket(t.api, owner.token);
    await t.api.post(`/tickets/${ticket.id}/comments`, { content: 'A note for the team', internal: true }, { token: agent.token });
    await t.api.put(
      `/tickets/${ticket.id}`,
      { status: 'in_progress', assignedAgentId: agent.user.id, tags: ['printer'] },
      { token: agent.token },
    );

    const calls: [key: string, path: string, token: string | undefined][] = [
      ['GET /config', '/config', undefined],
      ['GET /health', '/health', undefined],
      ['GET /auth/verify', '/auth/verify', owner.token],
      ['GET /users/profile', '/users/profile', agent.token],
      ['GET /users/staff', '/users/staff', agent.token],
      ['GET /users', '/users', admin.token],
      ['GET /users/:id/tickets', `/users/${owner.user.id}/tickets`, agent.token],
      ['GET /tickets', '/tickets', agent.token],
      ['GET /tickets', '/tickets', owner.token],
      ['GET /tickets/stats', '/tickets/stats', agent.token],
      ['GET /tickets/:id', `/tickets/${ticket.id}`, agent.token],
      ['GET /tickets/:id', `/tickets/${ticket.id}`, owner.token],
      ['GET /tickets/:id/comments', `/tickets/${ticket.id}/comments?before=2147483647`, agent.token],
      ['GET /tickets/:id/history', `/tickets/${ticket.id}/history?before=2147483647`, agent.token],
      ['GET /tags', '/tags', agent.token],
      ['GET /notifications', '/notifications', agent.token],
      ['GET /knowledge', '/knowledge', undefined],
      ['GET /views', '/views', agent.token],
      ['GET /views/counts', '/views/counts', agent.token],
      ['GET /canned-responses', '/canned-responses', agent.token],
      ['GET /sla/calendars', '/sla/calendars', agent.token],
      ['GET /sla/policies', '/sla/policies', agent.token],
      ['GET /email/settings', '/email/settings', admin.token],
      ['GET /email/inbound', '/email/inbound', admin.token],
      ['GET /tokens', '/tokens', admin.token],
    ];
    for (const [key, path, token] of calls) {
      const res = await t.api.get(path, { token });
      expect(res.status, `${key} ${path}`).toBe(200);
      const parsed = answerOf(key).safeParse(res.body);
      expect(parsed.error?.issues ?? [], `${key} ${path}`).toEqual([]);
    }

    const writes: [key: string, res: Awaited<ReturnType<typeof t.api.post>>][] = [
      [
        'POST /tickets',
        await t.api.post('/tickets', { title: 'Second one', description: 'Another problem to look at.' }, { token: owner.token }),
      ],
      [
        'POST /tickets/:id/comments',
        await t.api.post(`/tickets/${ticket.id}/comments`, { content: 'On it', status: 'pending' }, { token: agent.token }),
      ],
      [
        'POST /tickets/bulk',
        await t.api.post('/tickets/bulk', { ids: [ticket.id], changes: { priority: 'high' } }, { token: agent.token }),
      ],
      [
        'POST /views',
        await t.api.post('/views', { name: 'Printers', filters: { tag: 'printer' }, sort: '-priority' }, { token: agent.token }),
      ],
      ['POST /tokens', await t.api.post('/tokens', { name: 'Reports', scopes: ['tickets:read'] }, { token: agent.token })],
      ['POST /notifications/read', await t.api.post('/notifications/read', {}, { token: agent.token })],
      // An event this test never causes: nothing is sent anywhere.
      [
        'POST /webhooks',
        await t.api.post('/webhooks', { url: 'https://hooks.example.com/in', events: ['sla.breached'] }, { token: admin.token }),
      ],
    ];
    for (const [key, res] of writes) {
      expect(res.status, key).toBe(OPERATIONS[key]?.status ?? 200);
      expect(answerOf(key).safeParse(res.body).error?.issues ?? [], key).toEqual([]);
    }
    const webhookId = (writes.at(-1)![1].body as { webhook: { id: number } }).webhook.id;
    for (const [key, path] of [
      ['GET /webhooks', '/webhooks'],
      ['GET /webhooks/:id/deliveries', `/webhooks/${webhookId}/deliveries`],
    ] as const) {
      const res = await t.api.get(path, { token: admin.token });
      expect(answerOf(key).safeParse(res.body).error?.issues ?? [], key).toEqual([]);
    }
    // A resolved ticket: the owner's survey, and staff's view with its answer.
    expect((await t.api.put(`/tickets/${ticket.id}`, { status: 'resolved' }, { token: agent.token })).status).toBe(200);
    const survey = await t.api.get(`/tickets/${ticket.id}/csat`, { token: owner.token });
    expect(survey.body.survey).not.toBeNull();
    expect(answerOf('GET /tickets/:id/csat').safeParse(survey.body).error?.issues ?? []).toEqual([]);
    const answered = await t.api.post(`/tickets/${ticket.id}/csat`, { rating: 'good', comment: 'Quick' }, { token: owner.token });
    expect(answerOf('POST /tickets/:id/csat').safeParse(answered.body).error?.issues ?? []).toEqual([]);
    const rated = await t.api.get(`/tickets/${ticket.id}`, { token: agent.token });
    expect(rated.body.ticket.csat).toMatchObject({ rating: 'good', comment: 'Quick' });
    expect(answerOf('GET /tickets/:id').safeParse(rated.body).error?.issues ?? []).toEqual([]);

    const error = await t.api.get('/tickets/999999', { token: owner.token });
    expect(error.status).toBe(404);
    const { errorResponseSchema } = await import('@helpdesk/protocol');
    expect(errorResponseSchema.safeParse(error.body).success).toBe(true);
  });
});

describe('the interactive reference at /api/docs', () => {
  it('is a page under its own CSP that loads only installed files from here', async () => {
    const page = await fetch(`${t.url}/api/docs`);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-security-policy')).toBe(API_DOCS_CSP);
    const html = await page.text();
    const sources = [...html.matchAll(/(?:src|href)="([^"]+)"/g)].map((m) => m[1]!);
    expect(sources.length).toBeGreaterThan(2);
    for (const source of sources) {
      expect(source.startsWith('/api/docs/'), source).toBe(true);
      const file = await fetch(`${t.url}${source}`);
      expect(file.status, source).toBe(200);
      expect((await file.arrayBuffer()).byteLength, source).toBeGreaterThan(100);
    }
    const init = await (await fetch(`${t.url}/api/docs/init.js`)).text();
    expect(init).toContain("url: '/api/openapi.json'");
    expect(init).toContain('validatorUrl: null');
  });

  it('serves nothing else of the package, and no path outside it', async () => {
    for (const file of ['package.json', 'index.html', '..%2F..%2Fpackage.json', '%2e%2e%2fsettings.ts', 'swagger-ui-bundle.js.map']) {
      const res = await fetch(`${t.url}/api/docs/${file}`);
      expect(res.status, file).toBe(404);
      expect(await res.json()).toEqual({ success: false, message: MESSAGES.http.notFound });
    }
  });
});
