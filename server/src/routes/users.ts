import {
  MESSAGES,
  canListStaff,
  canManageUsers,
  changePasswordBody,
  createStaffBody,
  idParam,
  isStaff,
  listUsersQuery,
  requesterTicketsQuery,
  type RequesterTicketsResponse,
  preferencesBody,
  updateStaffBody,
  type ChangePasswordResponse,
  type MessageResponse,
  type StaffDirectoryResponse,
  type UserMessageResponse,
  type UserResponse,
  type UsersResponse,
} from '@helpdesk/protocol';
import { parseBody, parseInput } from '../lib/validation.js';
import { jsonBody } from '../middleware/jsonBody.js';
import type { RouteDeps } from './deps.js';
import { actorOf, clientIp, createRouter } from './router.js';

export function userRoutes({ services, auth, limiters }: RouteDeps) {
  const router = createRouter();
  // The only check of "admins only"; the service keeps the rules about the account being changed.
  const admin = auth.allow(canManageUsers, MESSAGES.http.adminOnly);

  router.get('/users/profile', auth.required, async (ctx) => {
    ctx.body = { success: true, user: await services.accounts.profile(actorOf(ctx)) } satisfies UserResponse;
  });

  router.put('/users/preferences', auth.required, jsonBody, async (ctx) => {
    const { email_notifications } = parseBody(preferencesBody, ctx.request.body);
    const user = await services.accounts.updatePreferences(actorOf(ctx), email_notifications);
    ctx.body = { success: true, user, message: MESSAGES.users.preferencesUpdated } satisfies UserMessageResponse;
  });

  router.get('/users/staff', auth.allow(canListStaff, MESSAGES.http.staffOnly), async (ctx) => {
    ctx.body = { success: true, staff: await services.users.staffDirectory() } satisfies StaffDirectoryResponse;
  });

  // Registered before PUT /users/:id so "password" is never read as an id.
  router.put('/users/password', auth.required, jsonBody, async (ctx) => {
    const actor = actorOf(ctx);
    const input = parseBody(changePasswordBody, ctx.request.body);
    await limiters.passwordChangePerAddress.consume(clientIp(ctx));
    await limiters.passwordChangePerUser.consume(String(actor.id));
    const session = await services.accounts.changePassword(actor, input);
    ctx.body = { success: true, ...session, message: MESSAGES.users.passwordChanged } satisfies ChangePasswordResponse;
  });

  // The requester panel of a ticket page: that person's newest tickets.
  router.get('/users/:id/tickets', auth.allow(isStaff, MESSAGES.http.staffOnly), async (ctx) => {
    const id = parseInput(idParam, ctx.params.id);
    const { limit } = parseInput(requesterTicketsQuery, ctx.query);
    ctx.body = { success: true, ...(await services.tickets.ofRequester(actorOf(ctx), id, limit)) } satisfies RequesterTicketsResponse;
  });

  router.get('/users', admin, async (ctx) => {
    const { role } = parseInput(listUsersQuery, ctx.query);
    ctx.body = { success: true, users: await services.users.list(role) } satisfies UsersResponse;
  });

  router.post('/users', admin, jsonBody, async (ctx) => {
    const input = parseBody(createStaffBody, ctx.request.body);
    const user = await services.users.create(input);
    ctx.status = 201;
    ctx.body = { success: true, user, message: MESSAGES.users.agentCreated } satisfies UserMessageResponse;
  });

  router.put('/users/:id', admin, jsonBody, async (ctx) => {
    const actor = actorOf(ctx);
    const id = parseInput(idParam, ctx.params.id);
    const input = parseBody(updateStaffBody, ctx.request.body);
    const user = await services.users.update(actor, id, input);
    ctx.body = { success: true, user, message: MESSAGES.users.agentUpdated } satisfies UserMessageResponse;
  });

  router.delete('/users/:id', admin, async (ctx) => {
    const actor = actorOf(ctx);
    const id = parseInput(idParam, ctx.params.id);
    await services.users.remove(actor, id);
    ctx.body = { success: true, message: MESSAGES.users.agentDeleted } satisfies MessageResponse;
  });

  return router;
}
