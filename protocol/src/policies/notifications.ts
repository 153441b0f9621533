import type { NotificationPreference, TicketStatus } from '../enums.js';

export type TicketNotice =
  | { kind: 'status'; to: TicketStatus }
  | { kind: 'staff-comment' }
  | { kind: 'mention' }
  | { kind: 'assigned' }
  /** To staff: a deadline of a ticket they hold (or, unassigned, of any: admins) is near or missed. */
  | { kind: 'sla_warning' }
  | { kind: 'sla_breached' };

const IMPORTANT_STATUSES: readonly TicketStatus[] = ['resolved', 'closed'];

/** docs/product.md#notifications: all = every status change and staff comment; important = resolved/closed only. */
export function wantsNotice(preference: NotificationPreference, notice: TicketNotice): boolean {
  if (preference === 'all') return true;
  if (preference === 'none') return false;
  // Being named in a note or handed a ticket is work waiting for you: important.
  if (notice.kind === 'mention' || notice.kind === 'assigned' || notice.kind === 'sla_warning' || notice.kind === 'sla_breached')
    return true;
  return notice.kind === 'status' && IMPORTANT_STATUSES.includes(notice.to);
}
