import {
  MESSAGES,
  calendarBody,
  idParam,
  isAdmin,
  isStaff,
  policyBody,
  policyOrderBody,
  type CalendarResponse,
  type CalendarsResponse,
  type MessageResponse,
  type PoliciesResponse,
  type PolicyResponse,
} from '@helpdesk/protocol';
import { parseBody, parseInput } from '../lib/validation.js';
import { jsonBody } from '../middleware/jsonBody.js';
import type { RouteDeps } from './deps.js';
import { createRouter } from './router.js';

/** Business calendars and SLA policies (docs/api.md#service-levels): staff read, admins write. */
export function slaRoutes({ services, auth }: RouteDeps) {
  const router = createRouter();
  const staff = auth.allow(isStaff, MESSAGES.http.staffOnly);
  // A user is told the staff rule first, an agent the admin rule.
  const admin = [staff, auth.allow(isAdmin, MESSAGES.http.adminOnly)];
  const sla = services.slaSettings;

  router.get('/sla/calendars', staff, async (ctx) => {
    ctx.body = { success: true, calendars: await sla.calendars() } satisfies CalendarsResponse;
  });
  router.get('/sla/calendars/:id', staff, async (ctx) => {
    ctx.body = { success: true, calendar: await sla.calendar(parseInput(idParam, ctx.params.id)) } satisfies CalendarResponse;
  });
  router.post('/sla/calendars', ...admin, jsonBody, async (ctx) => {
    const input = parseBody(calendarBody, ctx.request.body);
    ctx.status = 201;
    ctx.body = { success: true, calendar: await sla.createCalendar(input) } satisfies CalendarResponse;
  });
  router.put('/sla/calendars/:id', ...admin, jsonBody, async (ctx) => {
    const id = parseInput(idParam, ctx.params.id);
    const input = parseBody(calendarBody, ctx.request.body);
    ctx.body = { success: true, calendar: await sla.updateCalendar(id, input) } satisfies CalendarResponse;
  });
  router.delete('/sla/calendars/:id', ...admin, async (ctx) => {
    await sla.removeCalendar(parseInput(idParam, ctx.params.id));
    ctx.body = { success: true, message: MESSAGES.sla.calendarDeleted } satisfies MessageResponse;
  });

  router.get('/sla/policies', staff, async (ctx) => {
    ctx.body = { success: true, policies: await sla.policies() } satisfies PoliciesResponse;
  });
  // Registered before /sla/policies/:id, so "order" is never read as an id.
  router.put('/sla/policies/order', ...admin, jsonBody, async (ctx) => {
    const { ids } = parseBody(policyOrderBody, ctx.request.body);
    ctx.body = { success: true, policies: await sla.reorderPolicies(ids) } satisfies PoliciesResponse;
  });
  router.get('/sla/policies/:id', staff, async (ctx) => {
    ctx.body = { success: true, policy: await sla.policy(parseInput(idParam, ctx.params.id)) } satisfies PolicyResponse;
  });
  router.post('/sla/policies', ...admin, jsonBody, async (ctx) => {
    const input = parseBody(policyBody, ctx.request.body);
    ctx.status = 201;
    ctx.body = { success: true, policy: await sla.createPolicy(input) } satisfies PolicyResponse;
  });
  router.put('/sla/policies/:id', ...admin, jsonBody, async (ctx) => {
    const id = parseInput(idParam, ctx.params.id);
    const input = parseBody(policyBody, ctx.request.body);
    ctx.body = { success: true, policy: await sla.updatePolicy(id, input) } satisfies PolicyResponse;
  });
  router.delete('/sla/policies/:id', ...admin, async (ctx) => {
    await sla.removePolicy(parseInput(idParam, ctx.params.id));
    ctx.body = { success: true, message: MESSAGES.sla.policyDeleted } satisfies MessageResponse;
  });

  return router;
}
