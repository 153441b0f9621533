import { describe, expect, it } from 'vitest';
import { MESSAGES } from '../messages.js';
import { createApiTokenBody, scopeOfCall } from './apiTokens.js';

describe('scopeOfCall: the scope a call made with an API token needs', () => {
  it.each([
    ['GET', '/api/tickets', 'tickets:read'],
    ['GET', '/api/tickets/:id', 'tickets:read'],
    ['POST', '/api/tickets', 'tickets:write'],
    ['PUT', '/api/tickets/:id', 'tickets:write'],
    ['POST', '/api/tickets/bulk', 'tickets:write'],
    ['POST', '/api/uploads', 'tickets:write'],
    ['GET', '/api/attachments/:id', 'tickets:read'],
    ['GET', '/api/knowledge', 'any'],
    ['GET', '/api/knowledge/:id', 'any'],
    ['POST', '/api/knowledge/:id/helpful', 'knowledge:write'],
    ['POST', '/api/knowledge', 'knowledge:write'],
    ['DELETE', '/api/knowledge/:id', 'knowledge:write'],
    ['GET', '/api/csat/:token', 'any'],
    ['POST', '/api/csat/:token', 'any'],
    ['GET', '/api/tickets/:id/csat', 'tickets:read'],
    ['POST', '/api/tickets/:id/csat', 'tickets:write'],
    ['GET', '/api/reports/summary', 'reports:read'],
    ['GET', '/api/users/staff', 'users:read'],
    ['GET', '/api/users/:id/tickets', 'users:read'],
    ['GET', '/api/users/profile', 'users:read'],
    ['GET', '/api/users', 'admin'],
    ['POST', '/api/users', 'admin'],
    ['DELETE', '/api/users/:id', 'admin'],
    ['GET', '/api/sla/policies', 'tickets:read'],
    ['PUT', '/api/sla/policies/:id', 'admin'],
    ['GET', '/api/email/inbound', 'admin'],
    ['GET', '/api/webhooks', 'admin'],
    ['POST', '/api/webhooks', 'admin'],
    ['GET', '/api/webhooks/:id/deliveries', 'admin'],
    ['POST', '/api/webhooks/deliveries/:id/retry', 'admin'],
    ['GET', '/api/auth/verify', 'tickets:read'],
    ['POST', '/api/auth/login', 'never'],
    ['PUT', '/api/users/password', 'never'],
    ['PUT', '/api/users/preferences', 'never'],
    ['GET', '/api/tokens', 'never'],
    ['POST', '/api/tokens', 'never'],
    ['DELETE', '/api/tokens/:id', 'never'],
  ])('%s %s needs %s', (method, route, scope) => {
    expect(scopeOfCall(method, route)).toBe(scope);
  });
});

describe('createApiTokenBody', () => {
  const M = MESSAGES.apiTokens;
  /** The first message of each field, as the API answers them. */
  const issues = (body: unknown) =>
    [
      ...new Map(
        createApiTokenBody
          .safeParse(body)
          .error?.issues.reverse()
          .map((i) => [i.path.join('.'), `${i.path.join('.')}: ${i.message}`]),
      ).values(),
    ].reverse();

  it('takes a name, known scopes (kept in a fixed order, once each) and 90 days by default', () => {
    expect(createApiTokenBody.parse({ name: '  CI export ', scopes: ['tickets:write', 'tickets:read', 'tickets:read'] })).toEqual({
      name: 'CI export',
      scopes: ['tickets:read', 'tickets:write'],
      expiresInDays: 90,
    });
  });

  it('says what is wrong with each field', () => {
    expect(issues({ name: '', scopes: [], expiresInDays: 0 })).toEqual([
      `name: ${M.nameRequired}`,
      `scopes: ${M.scopesRequired}`,
      `expiresInDays: ${M.expiresInvalid}`,
    ]);
    expect(issues({ name: 'x'.repeat(81), scopes: ['tickets:read', 'root'], expiresInDays: 367 })).toEqual([
      `name: ${M.nameTooLong}`,
      'scopes: Scopes must be among: tickets:read, tickets:write, knowledge:write, reports:read, users:read, admin',
      `expiresInDays: ${M.expiresInvalid}`,
    ]);
    expect(issues({ name: 'ok', scopes: 'admin', expiresInDays: 1.5 })).toEqual([
      `scopes: ${M.scopesRequired}`,
      `expiresInDays: ${M.expiresInvalid}`,
    ]);
  });
});
