import { LIMITS, type Ticket } from '@helpdesk/protocol';
import { Card, Group, Text } from '@mantine/core';
import { IconCalendar, IconUser } from '@tabler/icons-react';
import { Link } from 'wouter';
import { CategoryChip } from '../../components/CategoryChip';
import { PriorityChip, StatusChip } from '../../components/TicketChips';
import { formatDate } from '../../lib/dates';
import { truncate } from '../../lib/text';
import classes from './TicketCard.module.css';

/** A recent ticket on the user dashboard (docs/product.md#user-dashboard); the whole card opens the ticket. */
export function TicketCard({ ticket }: { ticket: Ticket }) {
  return (
    <Card
      component={Link}
      href={`/ticket/${ticket.id}`}
      withBorder
      radius="md"
      padding="lg"
      className={classes.card}
      data-testid="ticket-card"
    >
      <Group justify="space-between" align="flex-start" wrap="nowrap" gap="xs" mb="xs">
        <Text fw={600} lineClamp={2} style={{ overflowWrap: 'anywhere' }}>
          {ticket.title}
        </Text>
        <Text size="sm" c="dimmed" style={{ flexShrink: 0 }}>
          #{ticket.id}
        </Text>
      </Group>
      <Group gap={6} mb="sm">
        <StatusChip status={ticket.status} />
        <PriorityChip priority={ticket.priority} />
        <CategoryChip category={ticket.category} />
      </Group>
      <Text size="sm" c="dimmed" mb="md" style={{ flex: 1, overflowWrap: 'anywhere' }}>
        {truncate(ticket.description, LIMITS.excerpt.userCard)}
      </Text>
      <Group justify="space-between" gap="xs" c="dimmed">
        <Group gap={4} wrap="nowrap">
          <IconCalendar size={14} />
          <Text size="xs">{formatDate(ticket.createdAt)}</Text>
        </Group>
        <Group gap={4} wrap="nowrap">
          <IconUser size={14} />
          <Text size="xs">By {ticket.user.name}</Text>
        </Group>
      </Group>
    </Card>
  );
}
