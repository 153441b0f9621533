import type { TicketDetail } from '@helpdesk/protocol';
import { Card, Divider, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import type { ReactNode } from 'react';
import { CategoryChip } from '../../components/CategoryChip';
import { PriorityChip, StatusChip } from '../../components/TicketChips';
import { formatDateTime } from '../../lib/dates';
import { ownerName } from './ticketText';

function Fact({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div>
      <Text size="xs" c="dimmed" tt="uppercase" fw={700}>
        {label}
      </Text>
      <Text size="sm" component="div" mt={4}>
        {children}
      </Text>
    </div>
  );
}

/** The update screen's left panel, what the agent needs to decide the new status (docs/product.md#agent-update-screen). */
export function TicketInfoPanel({ ticket }: { ticket: TicketDetail }) {
  return (
    <Card withBorder padding="lg" radius="md" aria-label="Ticket information" component="section">
      <Stack gap="md">
        <div>
          <Text size="xs" c="dimmed" fw={700} tt="uppercase">
            Ticket #{ticket.id}
          </Text>
          <Title order={2} size="h3" mt={4}>
            {ticket.title || 'No Title'}
          </Title>
        </div>
        <Text style={{ whiteSpace: 'pre-wrap' }}>{ticket.description}</Text>
        <Divider />
        <SimpleGrid cols={2} spacing="md" verticalSpacing="md">
          <Fact label="Submitted by">{ownerName(ticket)}</Fact>
          <Fact label="Created">{formatDateTime(ticket.createdAt)}</Fact>
          <Fact label="Priority">
            <PriorityChip priority={ticket.priority} />
          </Fact>
          <Fact label="Category">
            <CategoryChip category={ticket.category} />
          </Fact>
          <Fact label="Current status">
            <StatusChip status={ticket.status} data-testid="current-status" />
          </Fact>
          <Fact label="Assigned agent">{ticket.assignedAgent?.name ?? 'Unassigned'}</Fact>
          <Fact label="Comments">{ticket.commentCount}</Fact>
        </SimpleGrid>
      </Stack>
    </Card>
  );
}
