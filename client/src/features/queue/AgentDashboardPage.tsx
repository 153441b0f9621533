import { isStaff, type Ticket, type TicketStatus } from '@helpdesk/protocol';
import { Button, Group, Paper, Stack, Text, Title } from '@mantine/core';
import { IconPlus, IconRefresh } from '@tabler/icons-react';
import { useAtomValue, useSetAtom } from 'jotai';
import { useState } from 'react';
import { Link } from 'wouter';
import { ErrorAlert } from '../../components/ErrorAlert';
import { NoPermission } from '../../components/NoPermission';
import { TicketFilters } from '../../components/TicketFilters';
import { userAtom } from '../../state/session';
import { useQuickReply, useQuickStatusChange } from './actions';
import { AgentTicketTable } from './AgentTicketTable';
import { agentPageAtom, changeAgentQueryAtom } from './filters';
import { useAgentStats, useAgentTicketPage } from './queries';
import { QuickReplyModal } from './QuickReplyModal';
import { StatCards } from './StatCards';
import { TablePager } from './TablePager';

export const LOAD_FAILED = 'Failed to load tickets. Please try again later.';

/** The agent dashboard: counts, filters and the paged ticket table with quick actions (docs/product.md#agent-dashboard). */
export default function AgentDashboardPage() {
  const user = useAtomValue(userAtom);
  if (!user || !isStaff(user)) return <NoPermission />;
  return <AgentDashboard name={user.name} />;
}

function AgentDashboard({ name }: { name: string }) {
  const stats = useAgentStats();
  const { query: list, ticketQuery, filtered } = useAgentTicketPage();
  const setPage = useSetAtom(agentPageAtom);
  const change = useSetAtom(changeAgentQueryAtom);
  const statusChange = useQuickStatusChange();
  const reply = useQuickReply();
  const [replyTo, setReplyTo] = useState<Ticket | null>(null);
  // Only a refresh the agent asked for spins the button, not every keystroke's or socket's re-read.
  const [refreshing, setRefreshing] = useState(false);

  const refresh = async () => {
    setRefreshing(true);
    await Promise.allSettled([stats.refetch(), list.refetch()]);
    setRefreshing(false);
  };
  const sendReply = (ticket: Ticket, content: string, internal: boolean) =>
    reply.mutate({ id: ticket.id, content, internal }, { onSuccess: () => setReplyTo(null) });
  const changeStatus = (ticket: Ticket, status: TicketStatus) => statusChange.mutate({ id: ticket.id, status });

  return (
    <Stack gap="lg">
      <Group justify="space-between" align="flex-end">
        <div>
          <Title order={1} size="h2">
            Agent Dashboard
          </Title>
          <Text c="dimmed">Welcome back, {name}</Text>
        </div>
        <Group gap="sm">
          <Button variant="default" leftSection={<IconRefresh size={16} />} onClick={() => void refresh()} loading={refreshing}>
            Refresh
          </Button>
          <Button component={Link} href="/tickets/new" leftSection={<IconPlus size={16} />}>
            New Ticket
          </Button>
        </Group>
      </Group>

      <StatCards stats={stats.data?.stats} loading={stats.isPending} />
      <TicketFilters query={ticketQuery} onChange={change} />

      {list.isError && !list.data ? (
        <ErrorAlert message={LOAD_FAILED} error={list.error} />
      ) : (
        <Paper withBorder radius="md" style={{ overflow: 'hidden' }}>
          <AgentTicketTable
            rows={list.data?.data}
            stale={list.isPlaceholderData}
            filtered={filtered}
            skeletonRows={Math.min(ticketQuery.limit, 5)}
            onReply={setReplyTo}
            onQuickStatus={changeStatus}
            pendingId={statusChange.isPending ? statusChange.variables.id : null}
          />
          <TablePager
            page={ticketQuery.page}
            limit={ticketQuery.limit}
            total={list.data?.total ?? 0}
            totalCapped={list.data?.totalCapped}
            onPage={setPage}
            onLimit={(limit) => change({ limit })}
          />
        </Paper>
      )}

      <QuickReplyModal
        key={replyTo?.id ?? 'closed'}
        ticket={replyTo}
        sending={reply.isPending}
        onSend={sendReply}
        onClose={() => setReplyTo(null)}
      />
    </Stack>
  );
}
