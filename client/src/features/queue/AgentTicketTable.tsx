import { LIMITS, type Ticket } from '@helpdesk/protocol';
import { Skeleton, Stack, Table, Text } from '@mantine/core';
import { IconFilterSearch, IconInbox } from '@tabler/icons-react';
import { EmptyState } from '../../components/EmptyState';
import { PriorityChip, StatusChip } from '../../components/TicketChips';
import { formatDate } from '../../lib/dates';
import { truncate } from '../../lib/text';
import { descriptionOf, ownerName } from './ticketText';
import { TicketRowActions, type RowActionHandlers } from './TicketRowActions';

export const NO_TICKETS = 'No tickets found';
export const NO_MATCHES = 'No tickets match your filters';

const COLUMNS = ['ID', 'Title', 'User', 'Status', 'Priority', 'Created', 'Actions'];

interface AgentTicketTableProps extends RowActionHandlers {
  rows: Ticket[] | undefined;
  /** Rows from the previous page or filter, shown dimmed while the next answer comes. */
  stale: boolean;
  filtered: boolean;
  skeletonRows: number;
}

/** The dashboard table (docs/product.md#agent-dashboard); on a narrow screen it scrolls sideways inside its card, not the page. */
export function AgentTicketTable({ rows, stale, filtered, skeletonRows, ...actions }: AgentTicketTableProps) {
  return (
    <Table.ScrollContainer minWidth={920} type="native">
      <Table verticalSpacing="sm" highlightOnHover style={{ opacity: stale ? 0.6 : 1 }} aria-label="Tickets" aria-busy={stale}>
        <Table.Thead>
          <Table.Tr>
            {COLUMNS.map((column) => (
              <Table.Th key={column}>{column}</Table.Th>
            ))}
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {rows === undefined && <SkeletonRows count={skeletonRows} />}
          {rows?.length === 0 && (
            <Table.Tr>
              <Table.Td colSpan={COLUMNS.length}>
                {filtered ? (
                  <EmptyState
                    title={NO_MATCHES}
                    description="Try a different search or clear the filters."
                    icon={<IconFilterSearch size={30} />}
                  />
                ) : (
                  <EmptyState
                    title={NO_TICKETS}
                    description="New tickets will appear here as soon as they are raised."
                    icon={<IconInbox size={30} />}
                  />
                )}
              </Table.Td>
            </Table.Tr>
          )}
          {rows?.map((ticket) => (
            <TicketRow key={ticket.id} ticket={ticket} {...actions} />
          ))}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}

function TicketRow({ ticket, ...actions }: { ticket: Ticket } & RowActionHandlers) {
  return (
    <Table.Tr data-ticket-id={ticket.id}>
      <Table.Td>
        <Text fw={600} c="dimmed" size="sm">
          #{ticket.id}
        </Text>
      </Table.Td>
      <Table.Td maw={360}>
        <Stack gap={2}>
          <Text fw={600} size="sm" lineClamp={1}>
            {ticket.title || 'No Title'}
          </Text>
          <Text size="xs" c="dimmed" lineClamp={1} data-testid="ticket-excerpt">
            {truncate(descriptionOf(ticket), LIMITS.excerpt.agentTable)}
          </Text>
        </Stack>
      </Table.Td>
      <Table.Td>
        <Text size="sm">{ownerName(ticket)}</Text>
      </Table.Td>
      <Table.Td>
        <StatusChip status={ticket.status} />
      </Table.Td>
      <Table.Td>
        <PriorityChip priority={ticket.priority} />
      </Table.Td>
      <Table.Td>
        <Text size="sm" style={{ whiteSpace: 'nowrap' }}>
          {formatDate(ticket.createdAt)}
        </Text>
      </Table.Td>
      <Table.Td>
        <TicketRowActions ticket={ticket} {...actions} />
      </Table.Td>
    </Table.Tr>
  );
}

function SkeletonRows({ count }: { count: number }) {
  return Array.from({ length: count }, (_, row) => (
    <Table.Tr key={row}>
      {COLUMNS.map((column) => (
        <Table.Td key={column}>
          <Skeleton h={16} radius="sm" />
        </Table.Td>
      ))}
    </Table.Tr>
  ));
}
