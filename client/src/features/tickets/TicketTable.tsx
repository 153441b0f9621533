import type { Ticket } from '@helpdesk/protocol';
import { Anchor, Table, Text } from '@mantine/core';
import type { MouseEvent } from 'react';
import { Link, useLocation } from 'wouter';
import { CategoryChip } from '../../components/CategoryChip';
import { PriorityChip, StatusChip } from '../../components/TicketChips';
import { formatDate, fromNow } from '../../lib/dates';

/** The tickets page on wide screens: one row per ticket, the whole row opens it. */
export function TicketTable({ tickets, showOwner }: { tickets: Ticket[]; showOwner: boolean }) {
  const [, navigate] = useLocation();
  return (
    <Table.ScrollContainer minWidth={720}>
      <Table highlightOnHover verticalSpacing="sm">
        <Table.Thead>
          <Table.Tr>
            <Table.Th>ID</Table.Th>
            <Table.Th>Title</Table.Th>
            {showOwner && <Table.Th>User</Table.Th>}
            <Table.Th>Status</Table.Th>
            <Table.Th>Priority</Table.Th>
            <Table.Th>Category</Table.Th>
            <Table.Th>Created</Table.Th>
            <Table.Th>Updated</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {tickets.map((ticket) => (
            <Table.Tr key={ticket.id} onClick={() => navigate(`/ticket/${ticket.id}`)} style={{ cursor: 'pointer' }}>
              <Table.Td>
                <Text size="sm" c="dimmed">
                  #{ticket.id}
                </Text>
              </Table.Td>
              <Table.Td maw={420}>
                <Anchor
                  component={Link}
                  href={`/ticket/${ticket.id}`}
                  fw={500}
                  size="sm"
                  lineClamp={1}
                  onClick={(event: MouseEvent) => event.stopPropagation()}
                >
                  {ticket.title}
                </Anchor>
              </Table.Td>
              {showOwner && <Table.Td>{ticket.user.name}</Table.Td>}
              <Table.Td>
                <StatusChip status={ticket.status} />
              </Table.Td>
              <Table.Td>
                <PriorityChip priority={ticket.priority} />
              </Table.Td>
              <Table.Td>
                <CategoryChip category={ticket.category} />
              </Table.Td>
              <Table.Td>
                <Text size="sm">{formatDate(ticket.createdAt)}</Text>
              </Table.Td>
              <Table.Td>
                <Text size="sm" c="dimmed">
                  {fromNow(ticket.updatedAt)}
                </Text>
              </Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}
