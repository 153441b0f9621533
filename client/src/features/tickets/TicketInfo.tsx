import type { TicketDetail } from '@helpdesk/protocol';
import { Group, Stack, Text } from '@mantine/core';
import type { ReactNode } from 'react';
import { formatDateTime } from '../../lib/dates';

function InfoRow({ label, children }: { label: string; children: ReactNode }) {
  return (
    <Group justify="space-between" gap="xs" wrap="nowrap" align="flex-start">
      <Text size="sm" c="dimmed">
        {label}
      </Text>
      <Text size="sm" fw={500} ta="right">
        {children}
      </Text>
    </Group>
  );
}

/** Who and when: the Ticket Information block of the ticket page (docs/product.md#ticket-page). */
export function TicketInfo({ ticket }: { ticket: TicketDetail }) {
  return (
    <Stack gap="xs">
      <InfoRow label="Created by">{ticket.user.name}</InfoRow>
      <InfoRow label="Created">{formatDateTime(ticket.createdAt)}</InfoRow>
      <InfoRow label="Last updated">{formatDateTime(ticket.updatedAt)}</InfoRow>
      <InfoRow label="Assigned agent">{ticket.assignedAgent?.name ?? 'Unassigned'}</InfoRow>
      {ticket.updatedBy && <InfoRow label="Updated by">{ticket.updatedBy.name}</InfoRow>}
    </Stack>
  );
}
