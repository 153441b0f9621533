import { isStaffRole, type Ticket, type TicketStatus } from '@helpdesk/protocol';
import { Button, Group, Paper, Stack, Text, Title } from '@mantine/core';
import { IconPlus, IconRefresh } from '@tabler/icons-react';
import { useAtomValue, useSetAtom } from 'jotai';
import { useState } from 'react';
import { Link } from 'wouter';
import { ErrorAlert } from '../../components/ErrorAlert';
import { NoPermission } from '../../components/NoPermission';
import { userAtom } from '../../state/session';
import { useQuickReply, useQuickStatusChange } from './actions';
import { AgentTicketTable } from './AgentTicketTable';
import { agentPageAtom, changeAgentPageSizeAtom } from './filters';
import { useAgentStats, useAgentTicketPage } from './queries';
import { QuickReplyModal } from './QuickReplyModal';
import { StatCards } from './StatCards';
import { TablePager } from './TablePager';
import { TicketFilters } from './TicketFilters';

export const LOAD_FAILED = 'Failed to load tickets. Please try again later.';

/** SPEC §2 "Agent dashboard": counts, filters and the paged ticket table with quick actions. */
export default function AgentDashboardPage() {
  const user = useAtomValue(userAtom);
  if (!user || !isStaffRole(user.role)) return <NoPermission />;
  return <AgentDashboard name={user.name} />;
}

function AgentDashboard({ name }: { name: string }) {
  const stats = useAgentStats();
  const { query: list, page, limit, filtered } = useAgentTicketPage();
  const setPage = useSetAtom(agentPageAtom);
  const setPageSize = useSetAtom(changeAgentPageSizeAtom);
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
  const sendReply = (ticket: Ticket, content: string) => reply.mutate({ id: ticket.id, content }, { onSuccess: () => setReplyTo(null) });
  const changeStatus = (ticket: Ticket, status: TicketStatus) => statusChange.mutate({ id: ticket.id, status });

  return (
    <Stack gap="lg">
      <Group justify="space-between" align="flex-end">
        <div>
          <Title order={2}>Agent Dashboard</Title>
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
      <TicketFilters />

      {list.isError && !list.data ? (
        <ErrorAlert message={LOAD_FAILED} error={list.error} />
      ) : (
        <Paper withBorder radius="md" style={{ overflow: 'hidden' }}>
          <AgentTicketTable
            rows={list.data?.data}
            stale={list.isPlaceholderData}
            filtered={filtered}
            skeletonRows={Math.min(limit, 5)}
            onReply={setReplyTo}
            onQuickStatus={changeStatus}
            pendingId={statusChange.isPending ? (statusChange.variables?.id ?? null) : null}
          />
          <TablePager page={page} limit={limit} total={list.data?.total ?? 0} onPage={setPage} onLimit={setPageSize} />
        </Paper>
      )}

      <QuickReplyModal key={replyTo?.id ?? 'closed'} ticket={replyTo} sending={reply.isPending} onSend={sendReply} onClose={() => setReplyTo(null)} />
    </Stack>
  );
}
