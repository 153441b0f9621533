import {
  canShareItems,
  formatTicketSort,
  isStaff,
  parseTicketSort,
  ticketQueryToUrl,
  type BulkChanges,
  type BulkUpdateResponse,
  type Ticket,
  type TicketQuery,
  type TicketStatus,
  type User,
  type View,
} from '@helpdesk/protocol';
import { Button, Group, Paper, Stack, Text, Title } from '@mantine/core';
import { IconBookmarkPlus, IconKeyboard, IconMessages, IconPlus, IconRefresh } from '@tabler/icons-react';
import { useAtomValue, useSetAtom } from 'jotai';
import { useEffect, useState } from 'react';
import { Link, useLocation } from 'wouter';
import { useTagSuggestions } from '../../api/tagSuggestions';
import { ErrorAlert } from '../../components/ErrorAlert';
import { NoPermission } from '../../components/NoPermission';
import { ShortcutHelp } from '../../components/ShortcutHelp';
import { TicketFilters } from '../../components/TicketFilters';
import { confirmDelete } from '../../lib/confirmDelete';
import { useShortcuts } from '../../lib/useShortcuts';
import { rememberQueueOrder } from '../../state/queueOrder';
import { userAtom } from '../../state/session';
import { canReply, useAssign, useQuickReply, useQuickStatusChange } from './actions';
import { AgentTicketTable } from './AgentTicketTable';
import { usePhone } from '../../lib/useScreenUnder';
import { QueueControls } from './QueueControls';
import { BulkBar, BulkResult } from './BulkBar';
import { agentPageAtom, changeAgentQueryAtom } from './filters';
import { useAgentStats, useAgentTicketPage } from './queries';
import { useAssignableStaff, useBulkUpdate, useViewCounts, useViewMutations, useViews } from './queueData';
import { QuickReplyModal } from './QuickReplyModal';
import { SaveViewModal } from './SaveViewModal';
import { StatCards } from './StatCards';
import { TablePager } from './TablePager';
import { ViewList } from './ViewList';

export const LOAD_FAILED = 'Failed to load tickets. Please try again later.';
export const BULK_FAILED = 'Failed to update the selected tickets';

/** The table's filters and sort as a view would store them. */
const viewQueryOf = (view: View): Partial<TicketQuery> => ({
  status: view.filters.status,
  priority: view.filters.priority,
  category: view.filters.category,
  search: view.filters.search,
  assignee: view.filters.assignee,
  tag: view.filters.tag,
  sla: view.filters.sla,
  sort: parseTicketSort(view.sort),
});
const showsView = (query: TicketQuery, view: View) => {
  const wanted = viewQueryOf(view);
  return (
    query.status === wanted.status &&
    query.priority === wanted.priority &&
    query.category === wanted.category &&
    query.search === wanted.search &&
    query.assignee === wanted.assignee &&
    query.tag === wanted.tag &&
    query.sla === wanted.sla &&
    formatTicketSort(query.sort) === formatTicketSort(wanted.sort ?? query.sort)
  );
};

/** The agent dashboard: counts, views, filters and the paged ticket table with quick and bulk actions (docs/product.md#agent-dashboard). */
export default function AgentDashboardPage() {
  const user = useAtomValue(userAtom);
  if (!user || !isStaff(user)) return <NoPermission />;
  return <AgentDashboard user={user} />;
}

function AgentDashboard({ user }: { user: User }) {
  const [, navigate] = useLocation();
  const stats = useAgentStats();
  const { query: list, ticketQuery, filtered } = useAgentTicketPage();
  const setPage = useSetAtom(agentPageAtom);
  const change = useSetAtom(changeAgentQueryAtom);
  const statusChange = useQuickStatusChange();
  const reply = useQuickReply();
  const assign = useAssign();
  const bulk = useBulkUpdate();
  const staff = useAssignableStaff().data?.staff ?? [];
  const tagSuggestions = useTagSuggestions();
  const views = useViews();
  const counts = useViewCounts();
  const viewChanges = useViewMutations();
  const [replyTo, setReplyTo] = useState<Ticket | null>(null);
  const [selected, setSelected] = useState<ReadonlySet<number>>(new Set());
  const [bulkResult, setBulkResult] = useState<BulkUpdateResponse | null>(null);
  const [activeId, setActiveId] = useState<number | null>(null);
  const [help, setHelp] = useState(false);
  const [naming, setNaming] = useState<{ view?: View } | null>(null);
  // Only a refresh the agent asked for spins the button, not every keystroke's or socket's re-read.
  const [refreshing, setRefreshing] = useState(false);
  const rows = list.data?.data;
  // What j/k on a ticket page step through, also after a reload (state/queueOrder.ts).
  const order = rows && !list.isPlaceholderData ? rows.map((t) => t.id).join(',') : undefined;
  const orderQuery = ticketQueryToUrl(ticketQuery);
  useEffect(() => {
    if (order !== undefined) rememberQueueOrder(order ? order.split(',').map(Number) : [], orderQuery);
  }, [order, orderQuery]);
  const phone = usePhone();
  const me = { id: user.id, name: user.name };

  // A selection belongs to the list it was made in.
  const listKey = JSON.stringify({ ...ticketQuery });
  const [selectionKey, setSelectionKey] = useState(listKey);
  if (selectionKey !== listKey) {
    setSelectionKey(listKey);
    setSelected(new Set());
  }

  const refresh = async () => {
    setRefreshing(true);
    await Promise.allSettled([stats.refetch(), list.refetch(), counts.refetch()]);
    setRefreshing(false);
  };
  const sendReply = (ticket: Ticket, content: string, internal: boolean) =>
    reply.mutate({ id: ticket.id, content, internal }, { onSuccess: () => setReplyTo(null) });
  const changeStatus = (ticket: Ticket, status: TicketStatus) => statusChange.mutate({ id: ticket.id, status });
  const open = (ticket: Ticket) => navigate(`/ticket/${ticket.id}`);
  const toggle = (id: number, on: boolean) =>
    setSelected((current) => {
      const next = new Set(current);
      if (on) next.add(id);
      else next.delete(id);
      return next;
    });
  const togglePage = (on: boolean) => setSelected(on ? new Set(rows?.map((t) => t.id)) : new Set());
  const applyBulk = (changes: BulkChanges) =>
    bulk.mutate(
      { ids: [...selected], changes },
      {
        onSuccess: (result) => {
          setBulkResult(result);
          setSelected(new Set(result.failed.map((f) => f.id)));
        },
      },
    );

  const moveActive = (step: number) => {
    if (!rows || rows.length === 0) return;
    const at = rows.findIndex((t) => t.id === activeId);
    const next = at === -1 ? (step > 0 ? 0 : rows.length - 1) : Math.min(rows.length - 1, Math.max(0, at + step));
    setActiveId(rows[next]?.id ?? null);
  };
  const active = rows?.find((t) => t.id === activeId);
  useShortcuts({
    j: () => moveActive(1),
    k: () => moveActive(-1),
    Enter: (event) => {
      if (!active || (event.target instanceof Element && event.target.closest('a, button'))) return;
      event.preventDefault();
      open(active);
    },
    r: (event) => {
      if (!active || !canReply(active.status)) return;
      event.preventDefault();
      setReplyTo(active);
    },
    '?': () => setHelp(true),
  });

  const activeView = views.data?.views.find((view) => showsView(ticketQuery, view));
  const saveView = (name: string, shared: boolean) => {
    const editing = naming?.view;
    if (editing) {
      viewChanges.update.mutate({ id: editing.id, body: { name } }, { onSuccess: () => setNaming(null) });
      return;
    }
    viewChanges.create.mutate(
      {
        name,
        shared,
        filters: {
          status: ticketQuery.status,
          priority: ticketQuery.priority,
          category: ticketQuery.category,
          search: ticketQuery.search,
          assignee: ticketQuery.assignee,
          tag: ticketQuery.tag,
          sla: ticketQuery.sla,
        },
        sort: formatTicketSort(ticketQuery.sort),
      },
      { onSuccess: () => setNaming(null) },
    );
  };

  return (
    <Stack gap="lg">
      <Group justify="space-between" align="flex-end">
        <div>
          <Title order={1} size="h2">
            Agent Dashboard
          </Title>
          <Text c="dimmed">Welcome back, {user.name}</Text>
        </div>
        <Group gap="sm">
          <Button variant="subtle" leftSection={<IconKeyboard size={16} />} onClick={() => setHelp(true)} visibleFrom="sm">
            Shortcuts
          </Button>
          <Button component={Link} href="/agent/canned-responses" variant="default" leftSection={<IconMessages size={16} />}>
            Canned responses
          </Button>
          <Button variant="default" leftSection={<IconRefresh size={16} />} onClick={() => void refresh()} loading={refreshing}>
            Refresh
          </Button>
          <Button component={Link} href="/tickets/new" leftSection={<IconPlus size={16} />}>
            New Ticket
          </Button>
        </Group>
      </Group>

      <QueueControls phone={phone}>
        <StatCards stats={stats.data?.stats} capped={stats.data?.totalCapped} loading={stats.isPending} />
        <Stack gap="sm">
          <ViewList
            views={views.data?.views}
            counts={counts.data?.counts}
            activeId={activeView?.id ?? null}
            user={user}
            onOpen={(view) => change(viewQueryOf(view))}
            onRename={(view) => setNaming({ view })}
            onToggleShare={(view) => viewChanges.update.mutate({ id: view.id, body: { shared: !view.shared } })}
            onDelete={(view) =>
              confirmDelete({
                title: 'Delete view',
                question: `Delete the view "${view.name}"? Tickets are not affected.`,
                onConfirm: () => viewChanges.remove.mutate(view.id),
              })
            }
            action={
              <Button variant="light" size="xs" leftSection={<IconBookmarkPlus size={16} />} onClick={() => setNaming({})}>
                Save current view
              </Button>
            }
          />
        </Stack>
        <TicketFilters query={ticketQuery} onChange={change} assignees={{ staff, meId: user.id }} tags={tagSuggestions} sla syntax />
      </QueueControls>

      <Stack gap="md">
        {bulkResult && <BulkResult result={bulkResult} onClose={() => setBulkResult(null)} />}
        {bulk.isError && <ErrorAlert message={BULK_FAILED} error={bulk.error} />}
        {selected.size > 0 && (
          <BulkBar
            count={selected.size}
            staff={staff}
            meId={user.id}
            tagSuggestions={tagSuggestions}
            applying={bulk.isPending}
            onApply={applyBulk}
            onClear={() => setSelected(new Set())}
          />
        )}
        {list.isError && !list.data ? (
          <ErrorAlert message={LOAD_FAILED} error={list.error} />
        ) : (
          <Paper withBorder radius="md" style={{ overflow: 'hidden' }}>
            <AgentTicketTable
              rows={rows}
              stale={list.isPlaceholderData}
              filtered={filtered}
              skeletonRows={Math.min(ticketQuery.limit, 5)}
              sort={ticketQuery.sort}
              onSort={(sort) => change({ sort })}
              selection={{ selected, onToggle: toggle, onTogglePage: togglePage }}
              activeId={activeId}
              onOpen={open}
              onReply={setReplyTo}
              onQuickStatus={changeStatus}
              pendingId={statusChange.isPending ? statusChange.variables.id : null}
              assign={{ staff, me, onAssign: (ticket, agentId) => assign.mutate({ id: ticket.id, agentId }) }}
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
      </Stack>

      <QuickReplyModal ticket={replyTo} sending={reply.isPending} onSend={sendReply} onClose={() => setReplyTo(null)} />
      <SaveViewModal
        opened={naming !== null}
        title={naming?.view ? 'Rename view' : 'Save current view'}
        initialName={naming?.view?.name}
        canShare={!naming?.view && canShareItems(user)}
        saving={viewChanges.create.isPending || viewChanges.update.isPending}
        onSave={saveView}
        onClose={() => setNaming(null)}
      />
      <ShortcutHelp opened={help} onClose={() => setHelp(false)} />
    </Stack>
  );
}
