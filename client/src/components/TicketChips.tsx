import type { Priority, TicketStatus } from '@helpdesk/protocol';
import { Badge, type BadgeProps } from '@mantine/core';
import { labelOf } from '../lib/text';

/** Open red, in progress warning, resolved success; closed is done and muted (docs/product.md#ticket-lifecycle). */
export const STATUS_COLORS: Record<TicketStatus, string> = { open: 'red', in_progress: 'orange', resolved: 'green', closed: 'gray' };
/** Low green, medium warning, high and urgent red (docs/product.md#ticket-lifecycle). */
export const PRIORITY_COLORS: Record<Priority, string> = { low: 'green', medium: 'orange', high: 'red', urgent: 'red' };

export function StatusChip({ status, ...props }: { status: TicketStatus } & BadgeProps) {
  return (
    <Badge color={STATUS_COLORS[status]} variant="light" data-status={status} {...props}>
      {labelOf(status)}
    </Badge>
  );
}

export function PriorityChip({ priority, ...props }: { priority: Priority } & BadgeProps) {
  return (
    <Badge color={PRIORITY_COLORS[priority]} variant={priority === 'urgent' ? 'filled' : 'outline'} data-priority={priority} {...props}>
      {labelOf(priority)}
    </Badge>
  );
}
