import type { Ticket, TicketStatus } from '@helpdesk/protocol';
import { Group, Menu } from '@mantine/core';
import { IconCircleCheck, IconDots, IconEdit, IconEye, IconMessageReply, IconPlayerPlay } from '@tabler/icons-react';
import { Link } from 'wouter';
import { canReply, quickStatusFor } from './actions';
import { AssignMenu, type AssignHandlers } from './AssignMenu';
import { RowAction } from './RowAction';

export interface RowActionHandlers {
  onReply: (ticket: Ticket) => void;
  onQuickStatus: (ticket: Ticket, status: TicketStatus) => void;
  /** The ticket whose status change is on its way, to show it on that row only. */
  pendingId: number | null;
  /** The assignment menu, when the list offers it. */
  assign?: AssignHandlers;
  /** Touch screens get larger targets. */
  size?: 'md' | 'lg';
}

/**
 * Row actions (docs/product.md#agent-dashboard): Reply, Start or Resolve (while the ticket is live)
 * and Assign stand in the row; View details and Update sit in one labelled "More" menu, so the row
 * fits its table without scrolling sideways. On a phone card each action shows its name.
 */
export function TicketRowActions({
  ticket,
  onReply,
  onQuickStatus,
  pendingId,
  assign,
  size = 'md',
}: { ticket: Ticket } & RowActionHandlers) {
  const next = quickStatusFor(ticket.status);
  const pending = pendingId === ticket.id;
  const withText = size === 'lg';
  return (
    <Group gap={withText ? 6 : 4} wrap={withText ? 'wrap' : 'nowrap'}>
      {canReply(ticket.status) && (
        <RowAction
          label="Quick Reply"
          ariaLabel={`Quick reply to ticket #${ticket.id}`}
          icon={<IconMessageReply size={18} />}
          color="violet"
          variant="subtle"
          withText={withText}
          onClick={() => onReply(ticket)}
        />
      )}
      {next === 'in_progress' && (
        <RowAction
          label="Start"
          ariaLabel={`Start ticket #${ticket.id}`}
          icon={<IconPlayerPlay size={18} />}
          color="orange"
          variant="light"
          withText={withText}
          loading={pending}
          onClick={() => onQuickStatus(ticket, next)}
        />
      )}
      {next === 'resolved' && (
        <RowAction
          label="Resolve"
          ariaLabel={`Resolve ticket #${ticket.id}`}
          icon={<IconCircleCheck size={18} />}
          color="green"
          variant="light"
          withText={withText}
          loading={pending}
          onClick={() => onQuickStatus(ticket, next)}
        />
      )}
      {assign && <AssignMenu ticket={ticket} withText={withText} {...assign} />}
      <Menu position="bottom-end" withinPortal shadow="md">
        <Menu.Target>
          <RowAction
            label="More"
            ariaLabel={`More actions for ticket #${ticket.id}`}
            icon={<IconDots size={18} />}
            color="gray"
            variant="subtle"
            withText={withText}
          />
        </Menu.Target>
        <Menu.Dropdown>
          <Menu.Item
            component={Link}
            href={`/ticket/${ticket.id}`}
            leftSection={<IconEye size={16} />}
            aria-label={`View details of ticket #${ticket.id}`}
          >
            View details
          </Menu.Item>
          <Menu.Item
            component={Link}
            href={`/agent/ticket/${ticket.id}/update`}
            leftSection={<IconEdit size={16} />}
            aria-label={`Update ticket #${ticket.id}`}
          >
            Update
          </Menu.Item>
        </Menu.Dropdown>
      </Menu>
    </Group>
  );
}
