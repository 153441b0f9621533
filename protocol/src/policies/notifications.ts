import type { NotificationPreference, TicketStatus } from '../enums.js';

export type TicketNotice = { kind: 'status'; to: TicketStatus } | { kind: 'staff-comment' };

const IMPORTANT_STATUSES: readonly TicketStatus[] = ['resolved', 'closed'];

/** docs/product.md#notifications: all = every status change and staff comment; important = resolved/closed only. */
export function wantsNotice(preference: NotificationPreference, notice: TicketNotice): boolean {
  if (preference === 'all') return true;
  if (preference === 'none') return false;
  return notice.kind === 'status' && IMPORTANT_STATUSES.includes(notice.to);
}
