import type { Priority, TicketStatus } from '@helpdesk/protocol';
import { Badge, type BadgeProps } from '@mantine/core';
import { labelOf } from '../lib/text';
import classes from './TicketChips.module.css';
import { useChangeHighlight } from './useChangeHighlight';

/**
 * Open red, in progress warning, waiting on the customer cyan (the ball is in their court), resolved
 * success; closed is done and muted (docs/product.md#ticket-lifecycle).
 */
export const STATUS_COLORS: Record<TicketStatus, string> = {
  open: 'red',
  in_progress: 'orange',
  pending: 'cyan',
  resolved: 'green',
  closed: 'gray',
};
/** Low green, medium warning, high and urgent red (docs/product.md#ticket-lifecycle). */
export const PRIORITY_COLORS: Record<Priority, string> = { low: 'green', medium: 'orange', high: 'red', urgent: 'red' };

export function StatusChip({ status, className, ...props }: { status: TicketStatus } & BadgeProps) {
  const changed = useChangeHighlight(status);
  return (
    <Badge
      color={STATUS_COLORS[status]}
      variant="light"
      data-status={status}
      data-changed={changed || undefined}
      className={[changed ? classes.changed : undefined, className].filter(Boolean).join(' ') || undefined}
      {...props}
    >
      {labelOf(status)}
    </Badge>
  );
}

export function PriorityChip({ priority, ...props }: { priority: Priority } & BadgeProps) {
  const changed = useChangeHighlight(priority);
  return (
    <Badge
      color={PRIORITY_COLORS[priority]}
      variant={priority === 'urgent' ? 'filled' : 'outline'}
      data-priority={priority}
      data-changed={changed || undefined}
      className={changed ? classes.changed : undefined}
      {...props}
    >
      {labelOf(priority)}
    </Badge>
  );
}
