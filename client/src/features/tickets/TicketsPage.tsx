import { formatTotal } from '../../lib/text';
import { hasTicketFilters, isStaff, LIMITS, type Ticket, type TicketQuery } from '@helpdesk/protocol';
import { Button, Card, Group, Pagination, Select, Skeleton, Stack, Text } from '@mantine/core';
import { IconPlus, IconSearch, IconTicket } from '@tabler/icons-react';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useCallback } from 'react';
import { Link, Redirect } from 'wouter';
import { ticketKeys } from '../../api/ticketCache';
import { ticketsApi } from '../../api/tickets';
import { Refreshing } from '../../components/Refreshing';
import { EmptyState } from '../../components/EmptyState';
import { ErrorAlert } from '../../components/ErrorAlert';
import { LIST_SORTS, TicketFilters } from '../../components/TicketFilters';
import { PAGINATION_LABELS, pagesOffered, useLastPageWhenShrunk } from '../../lib/paging';
import { DeepPagesNote } from '../../components/DeepPagesNote';
import { useCan } from '../../state/useCan';
import { PageHeader } from './PageHeader';
import { TicketCard } from './TicketCard';
import { TicketTable } from './TicketTable';
import { TICKET_TEXT } from './texts';
import { useTicketQueryUrl } from './useTicketQueryUrl';
import { usePhone } from '../../lib/useScreenUnder';

const PAGE_SIZES: readonly number[] = LIMITS.ticketPage.genericOptions;

function TicketRows({ tickets, showOwner }: { tickets: Ticket[]; showOwner: boolean }) {
  // Read at once, not after the first paint, so a phone does not render the wide layout first.
  const narrow = usePhone();
  if (!narrow) return <TicketTable tickets={tickets} showOwner={showOwner} />;
  return (
    <Stack gap="sm" p="sm">
      {tickets.map((ticket) => (
        <TicketCard key={ticket.id} ticket={ticket} />
      ))}
    </Stack>
  );
}

function Pager({
  state,
  total,
  totalCapped,
  onChange,
}: {
  state: TicketQuery;
  total: number;
  totalCapped?: boolean;
  onChange: (change: Partial<TicketQuery>) => void;
}) {
  const pages = pagesOffered(total, state.limit);
  const first = (state.page - 1) * state.limit + 1;
  const last = Math.min(total, state.page * state.limit);
  return (
    <>
      <Group justify="space-between" gap="sm" p="md" style={{ borderTop: '1px solid var(--mantine-color-gray-2)' }}>
        <Text size="sm" c="dimmed">
          Showing {first}-{last} of {formatTotal(total, totalCapped)}
        </Text>
        <Group gap="md">
          <Group gap="xs" wrap="nowrap">
            <Text size="sm" c="dimmed" component="label" htmlFor="tickets-page-size">
              Rows per page
            </Text>
            <Select
              id="tickets-page-size"
              w={84}
              size="xs"
              data={PAGE_SIZES.map(String)}
              value={String(state.limit)}
              onChange={(value) => value && onChange({ limit: Number(value) })}
              allowDeselect={false}
            />
          </Group>
          <Pagination
            size="sm"
            total={pages}
            value={state.page}
            onChange={(page) => onChange({ page })}
            aria-label="Pages"
            {...PAGINATION_LABELS}
          />
        </Group>
      </Group>
      <DeepPagesNote page={state.page} limit={state.limit} total={total} totalCapped={totalCapped} />
    </>
  );
}

/** /tickets (docs/product.md#tickets-page): every ticket the caller may see (the API scopes it), filtered, sorted, paged. */
/** /tickets: the owner's table. Staff have one list, the queue, and land there (docs/product.md#navigation). */
export default function TicketsPage() {
  const staff = useCan(isStaff);
  return staff ? <Redirect to="/agent-dashboard" replace /> : <TicketsList />;
}

function TicketsList() {
  const [state, update] = useTicketQueryUrl(PAGE_SIZES);
  const list = useQuery({
    queryKey: ticketKeys.list(state),
    queryFn: ({ signal }) => ticketsApi.list(state, signal),
    placeholderData: keepPreviousData,
  });

  const goToPage = useCallback((page: number) => update({ page }), [update]);
  useLastPageWhenShrunk(list.isPlaceholderData ? undefined : list.data?.total, state.page, state.limit, goToPage);

  const filtered = hasTicketFilters(state);
  const tickets = list.data?.tickets ?? [];

  let content;
  if (list.isError) {
    content = (
      <Stack p="md">
        <ErrorAlert message={TICKET_TEXT.loadListFailed} error={list.error} />
      </Stack>
    );
  } else if (list.isPending) {
    content = (
      <Stack gap="xs" p="md">
        {[0, 1, 2, 3].map((i) => (
          <Skeleton key={i} h={36} />
        ))}
      </Stack>
    );
  } else if (tickets.length === 0) {
    content = filtered ? (
      <EmptyState icon={<IconSearch size={30} />} title={TICKET_TEXT.noMatches} description="Try other words or clear the filters." />
    ) : (
      <EmptyState icon={<IconTicket size={30} />} title={TICKET_TEXT.noTickets} />
    );
  } else {
    content = (
      <>
        <TicketRows tickets={tickets} showOwner={false} />
        <Pager state={state} total={list.data.total} totalCapped={list.data.totalCapped} onChange={update} />
      </>
    );
  }

  return (
    <Stack gap="lg">
      <PageHeader
        title="Tickets"
        subtitle="All the support tickets you have raised."
        actions={
          <Button component={Link} href="/create-ticket" leftSection={<IconPlus size={16} />}>
            New Ticket
          </Button>
        }
      />
      <TicketFilters query={state} onChange={update} sorts={LIST_SORTS} />
      <Card withBorder radius="md" padding={0}>
        <Refreshing active={list.isPlaceholderData}>{content}</Refreshing>
      </Card>
    </Stack>
  );
}
