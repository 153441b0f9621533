import { LIMITS } from '@helpdesk/protocol';
import { Button, Card, Group, SimpleGrid, Skeleton, Stack, Title } from '@mantine/core';
import { IconCircleCheck, IconInbox, IconList, IconPlus, IconProgress, IconTicket } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { useAtomValue } from 'jotai';
import { Link } from 'wouter';
import { ALL_TICKETS, ticketQueries } from '../../api/ticketQueries';
import { CountCards } from '../../components/CountCards';
import { EmptyState } from '../../components/EmptyState';
import { ErrorAlert } from '../../components/ErrorAlert';
import { userAtom } from '../../state/session';
import { PageHeader } from './PageHeader';
import { TicketCard } from './TicketCard';
import { TICKET_TEXT } from './texts';
import { RECENT_TICKETS } from './userDashboardReads';

function NewTicketButton({ label = 'New Ticket' }: { label?: string }) {
  return (
    <Button component={Link} href="/create-ticket" leftSection={<IconPlus size={16} />}>
      {label}
    </Button>
  );
}

/** The user dashboard: greeting, four count cards and the six newest tickets (docs/product.md#user-dashboard). */
export default function UserDashboardPage() {
  const user = useAtomValue(userAtom);
  const stats = useQuery(ticketQueries.stats(ALL_TICKETS));
  const recent = useQuery(ticketQueries.list(RECENT_TICKETS));

  const counts = stats.data?.stats;
  // The dashboard shows a generic text derived from the failure, and an empty list (docs/product.md#user-dashboard).
  const failure = recent.error ?? stats.error;
  const tickets = recent.data?.tickets ?? [];
  const total = recent.data?.total ?? 0;

  return (
    <Stack gap="xl">
      <PageHeader
        title={`Welcome, ${user?.name ?? ''}!`}
        subtitle="Here is an overview of your support tickets."
        actions={<NewTicketButton />}
      />

      {failure && <ErrorAlert message={failure.message} />}

      <CountCards
        loading={stats.isPending}
        cards={[
          { key: 'total', label: 'Total Tickets', value: counts?.total, color: 'blue', icon: IconTicket },
          { key: 'open', label: 'Open Tickets', value: counts?.open, color: 'red', icon: IconInbox },
          { key: 'in_progress', label: 'In Progress', value: counts?.in_progress, color: 'orange', icon: IconProgress },
          { key: 'resolved', label: 'Resolved', value: counts?.resolved, color: 'green', icon: IconCircleCheck },
        ]}
      />

      <Stack gap="md" component="section" aria-label="Recent Tickets">
        <Group justify="space-between">
          <Title order={2} size="h3">
            Recent Tickets
          </Title>
          {total > LIMITS.recentTickets && (
            <Button component={Link} href="/tickets" variant="light" leftSection={<IconList size={16} />}>
              View All Tickets
            </Button>
          )}
        </Group>
        {recent.isPending ? (
          <SimpleGrid cols={{ base: 1, sm: 2, lg: 3 }}>
            {[0, 1, 2].map((i) => (
              <Skeleton key={i} h={190} radius="md" />
            ))}
          </SimpleGrid>
        ) : tickets.length === 0 ? (
          <Card withBorder radius="md" padding="xl">
            <EmptyState
              icon={<IconTicket size={30} />}
              title={TICKET_TEXT.emptyDashboardTitle}
              description={TICKET_TEXT.emptyDashboardText}
              action={<NewTicketButton label="Create Ticket" />}
            />
          </Card>
        ) : (
          <SimpleGrid cols={{ base: 1, sm: 2, lg: 3 }} spacing="md">
            {tickets.map((ticket) => (
              <TicketCard key={ticket.id} ticket={ticket} />
            ))}
          </SimpleGrid>
        )}
      </Stack>
    </Stack>
  );
}
