import type { UserRef } from '@helpdesk/protocol';
import { Anchor, Card, Group, Skeleton, Stack, Text, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import dayjs from 'dayjs';
import { Link } from 'wouter';
import { deskApi } from '../../api/desk';
import { queryKeys } from '../../api/queryKeys';
import { ErrorAlert } from '../../components/ErrorAlert';
import { StatusChip } from '../../components/TicketChips';
import { formatDate } from '../../lib/dates';

export const REQUESTER_TEXT = {
  title: 'Requester',
  others: 'Other tickets',
  none: 'No other tickets.',
  loadFailed: 'Failed to load the requester’s tickets',
} as const;

/** "Customer for 3 months", from the account's creation. */
export const accountAge = (createdAt: string, now = Date.now()) => `Customer for ${dayjs(createdAt).from(now, true)}`;

/**
 * Who raised the ticket and their newest other tickets, each a link with its status (staff;
 * docs/product.md#ticket-page). The open ticket is left out of the list.
 */
export function RequesterPanel({ requester, ticketId }: { requester: UserRef; ticketId: number }) {
  const read = useQuery({
    queryKey: queryKeys.desk.requesterTickets(requester.id),
    queryFn: ({ signal }) => deskApi.requesterTickets(requester.id, signal),
    staleTime: 30_000,
  });
  const account = read.data?.requester;
  const others = read.data?.tickets.filter((t) => t.id !== ticketId);
  return (
    <Card withBorder radius="md" padding="lg" component="section" aria-label={REQUESTER_TEXT.title}>
      <Stack gap="xs">
        <Title order={2} size="h4">
          {REQUESTER_TEXT.title}
        </Title>
        <Text fw={600} data-testid="requester-name">
          {account?.name ?? requester.name}
        </Text>
        {account && (
          <>
            <Anchor href={`mailto:${account.email}`} size="sm" style={{ overflowWrap: 'anywhere' }} data-testid="requester-email">
              {account.email}
            </Anchor>
            <Text size="sm" c="dimmed" title={formatDate(account.createdAt)}>
              {accountAge(account.createdAt)}
            </Text>
          </>
        )}
        <Title order={3} size="h6" mt="xs">
          {REQUESTER_TEXT.others}
        </Title>
        {read.isPending && <Skeleton h={60} />}
        {read.isError && <ErrorAlert message={REQUESTER_TEXT.loadFailed} error={read.error} />}
        {others?.length === 0 && (
          <Text size="sm" c="dimmed">
            {REQUESTER_TEXT.none}
          </Text>
        )}
        {others && others.length > 0 && (
          <Stack gap={6} component="ul" style={{ listStyle: 'none', padding: 0, margin: 0 }} aria-label={REQUESTER_TEXT.others}>
            {others.map((other) => (
              <Group key={other.id} component="li" gap="xs" wrap="nowrap" justify="space-between">
                <Anchor component={Link} href={`/ticket/${other.id}`} size="sm" truncate="end" title={other.title} style={{ minWidth: 0 }}>
                  #{other.id} {other.title}
                </Anchor>
                <StatusChip status={other.status} size="xs" style={{ flexShrink: 0 }} />
              </Group>
            ))}
          </Stack>
        )}
      </Stack>
    </Card>
  );
}
