import {
  canListStaff,
  canManageUsers,
  idParam,
  inboundListQuery,
  MESSAGES,
  type EmailSettings,
  type EmailSettingsResponse,
  type InboundMessageResponse,
  type InboundMessagesResponse,
} from '@helpdesk/protocol';
import { parseInput } from '../lib/validation.js';
import type { RouteDeps } from './deps.js';
import { actorOf, createRouter, DOWNLOAD_CSP, type FileResponse } from './router.js';

/** IMAP_URL as an admin may see it: without its password. */
function withoutPassword(url: string): string {
  const parsed = new URL(url);
  parsed.password = '';
  return parsed.toString();
}

/**
 * The Email admin page's calls (docs/api.md#email-admin): the intake's settings, its latest
 * messages, retrying a failed one. The raw message of a filed mail is for staff, who may read every
 * ticket anyway; the rest (bounces, refused mail) for admins.
 */
export function emailRoutes({ services, auth, settings, inboundSmtpPort }: RouteDeps) {
  const router = createRouter();
  const admin = auth.allow(canManageUsers, MESSAGES.http.adminOnly);
  const staff = auth.allow(canListStaff, MESSAGES.http.staffOnly);

  router.get('/email/settings', admin, (ctx) => {
    const { inbound } = settings;
    const view: EmailSettings = {
      supportAddress: settings.supportAddress,
      smtp: inbound.smtpPort === undefined ? null : { host: inbound.smtpHost, port: inboundSmtpPort ?? inbound.smtpPort },
      imap: inbound.imap
        ? { url: withoutPassword(inbound.imap.url), doneFolder: inbound.imap.doneFolder, pollMs: inbound.imap.pollMs }
        : null,
      createUsers: inbound.createUsers,
      maxBytes: inbound.maxBytes,
      maxPerSenderPerHour: inbound.maxPerSenderPerHour,
    };
    ctx.body = { success: true, settings: view } satisfies EmailSettingsResponse;
  });

  router.get('/email/inbound', admin, async (ctx) => {
    const { limit, before } = parseInput(inboundListQuery, ctx.query);
    ctx.body = { success: true, ...(await services.inbound.list(limit, before)) } satisfies InboundMessagesResponse;
  });

  router.post('/email/inbound/:id/retry', admin, async (ctx) => {
    const id = parseInput(idParam, ctx.params.id);
    const inboundMessage = await services.inbound.retry(id);
    ctx.body = { success: true, inboundMessage, message: MESSAGES.inbound.retried } satisfies InboundMessageResponse;
  });

  router.get('/email/inbound/:id/raw', staff, async (ctx) => {
    const id = parseInput(idParam, ctx.params.id);
    const { row, stream } = await services.inbound.rawMessage(actorOf(ctx), id);
    ctx.set('Content-Type', 'message/rfc822');
    ctx.set('Content-Disposition', `attachment; filename="message-${row.id}.eml"`);
    ctx.set('X-Content-Type-Options', 'nosniff');
    ctx.set('Content-Security-Policy', DOWNLOAD_CSP);
    ctx.length = row.size;
    ctx.body = stream satisfies FileResponse;
  });

  return router;
}
