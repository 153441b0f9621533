import type { Ticket, TicketStatus } from '@helpdesk/protocol';
import { ActionIcon, Group, Tooltip } from '@mantine/core';
import { IconCircleCheck, IconEdit, IconEye, IconMessageReply, IconPlayerPlay } from '@tabler/icons-react';
import type { ReactElement } from 'react';
import { Link } from 'wouter';
import { canReply, quickStatusFor } from './actions';
import { AssignMenu, type AssignHandlers } from './AssignMenu';

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
 * A tip for pointer users. The touch cards (size lg) go without: there is no hover to show it, and
 * each mounted tip re-renders its row once on a slow phone's first paint.
 */
function Hint({ label, show, children }: { label: string; show: boolean; children: ReactElement }) {
  return show ? <Tooltip label={label}>{children}</Tooltip> : children;
}

/** Row actions (docs/product.md#agent-dashboard): view and update always; Reply, Start and Resolve only while the ticket is live. */
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
  const hints = size !== 'lg';
  return (
    <Group gap={size === 'lg' ? 8 : 4} wrap="nowrap">
      <Hint label="View details" show={hints}>
        <ActionIcon
          size={size}
          component={Link}
          href={`/ticket/${ticket.id}`}
          variant="subtle"
          color="gray"
          aria-label={`View ticket #${ticket.id}`}
        >
          <IconEye size={18} />
        </ActionIcon>
      </Hint>
      <Hint label="Update" show={hints}>
        <ActionIcon
          size={size}
          component={Link}
          href={`/agent/ticket/${ticket.id}/update`}
          variant="subtle"
          color="blue"
          aria-label={`Update ticket #${ticket.id}`}
        >
          <IconEdit size={18} />
        </ActionIcon>
      </Hint>
      {canReply(ticket.status) && (
        <Hint label="Quick Reply" show={hints}>
          <ActionIcon
            size={size}
            variant="subtle"
            color="violet"
            aria-label={`Quick reply to ticket #${ticket.id}`}
            onClick={() => onReply(ticket)}
          >
            <IconMessageReply size={18} />
          </ActionIcon>
        </Hint>
      )}
      {next === 'in_progress' && (
        <Hint label="Start" show={hints}>
          <ActionIcon
            size={size}
            variant="light"
            color="orange"
            aria-label={`Start ticket #${ticket.id}`}
            loading={pending}
            onClick={() => onQuickStatus(ticket, next)}
          >
            <IconPlayerPlay size={18} />
          </ActionIcon>
        </Hint>
      )}
      {next === 'resolved' && (
        <Hint label="Resolve" show={hints}>
          <ActionIcon
            size={size}
            variant="light"
            color="green"
            aria-label={`Resolve ticket #${ticket.id}`}
            loading={pending}
            onClick={() => onQuickStatus(ticket, next)}
          >
            <IconCircleCheck size={18} />
          </ActionIcon>
        </Hint>
      )}
      {assign && <AssignMenu ticket={ticket} hint={hints} {...assign} />}
    </Group>
  );
}
