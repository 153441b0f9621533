import {
  MESSAGES,
  isAdmin,
  isStaff,
  reportQuery,
  type ReportAgentsResponse,
  type ReportBacklogResponse,
  type ReportBreakdownResponse,
  type ReportSummaryResponse,
  type ReportTimeseriesResponse,
} from '@helpdesk/protocol';
import { parseInput } from '../lib/validation.js';
import type { AppContext } from '../middleware/state.js';
import type { RouteDeps } from './deps.js';
import { actorOf, createRouter, DOWNLOAD_CSP, type FileResponse } from './router.js';

/** Reports (docs/api.md#reports): staff read the figures, admins the per-agent table and the CSV export. */
export function reportRoutes({ services, auth }: RouteDeps) {
  const router = createRouter();
  const staff = auth.allow(isStaff, MESSAGES.http.staffOnly);
  // A user is told the staff rule first, an agent the admin rule.
  const admin = [staff, auth.allow(isAdmin, MESSAGES.http.adminOnly)];
  const reports = services.reports;
  const query = (ctx: AppContext) => parseInput(reportQuery, ctx.query);

  router.get('/reports/summary', staff, async (ctx) => {
    ctx.body = { success: true, summary: await reports.summary(actorOf(ctx), query(ctx)) } satisfies ReportSummaryResponse;
  });
  router.get('/reports/timeseries', staff, async (ctx) => {
    ctx.body = { success: true, ...(await reports.timeseries(actorOf(ctx), query(ctx))) } satisfies ReportTimeseriesResponse;
  });
  router.get('/reports/backlog', staff, async (ctx) => {
    ctx.body = { success: true, buckets: await reports.backlog(actorOf(ctx), query(ctx)) } satisfies ReportBacklogResponse;
  });
  router.get('/reports/breakdown', staff, async (ctx) => {
    ctx.body = { success: true, ...(await reports.breakdown(actorOf(ctx), query(ctx))) } satisfies ReportBreakdownResponse;
  });
  router.get('/reports/agents', ...admin, async (ctx) => {
    ctx.body = { success: true, agents: await reports.agents(actorOf(ctx), query(ctx)) } satisfies ReportAgentsResponse;
  });
  router.get('/reports/tickets.csv', ...admin, (ctx) => {
    const { filename, stream } = reports.ticketsCsv(actorOf(ctx), query(ctx));
    ctx.set('Content-Type', 'text/csv; charset=utf-8');
    ctx.set('Content-Disposition', `attachment; filename="${filename}"`);
    ctx.set('X-Content-Type-Options', 'nosniff');
    ctx.set('Content-Security-Policy', DOWNLOAD_CSP);
    ctx.body = stream satisfies FileResponse;
  });

  return router;
}
