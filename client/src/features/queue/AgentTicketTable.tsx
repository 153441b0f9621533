import { LIMITS, type Ticket, type TicketSort, type TicketSortField } from '@helpdesk/protocol';
import { Badge, Card, Checkbox, Group, Skeleton, Stack, Table, Text } from '@mantine/core';
import { IconFilterSearch, IconInbox } from '@tabler/icons-react';
import { useEffect, useRef, type KeyboardEvent, type MouseEvent } from 'react';
import { Refreshing } from '../../components/Refreshing';
import { EmptyState } from '../../components/EmptyState';
import { CategoryChip } from '../../components/CategoryChip';
import { PriorityChip, StatusChip } from '../../components/TicketChips';
import { formatDateTime, formatWhen } from '../../lib/dates';
import { truncate } from '../../lib/text';
import classes from './AgentTicketTable.module.css';
import { SortHeader } from './SortHeader';
import { descriptionOf, ownerName } from './ticketText';
import { TicketViewers } from '../../components/collaboration/TicketViewers';
import { TicketRowActions, type RowActionHandlers } from './TicketRowActions';
import { SlaBadge } from '../../components/sla/SlaBadge';
import { usePhone } from '../../lib/useScreenUnder';

export const NO_TICKETS = 'No tickets found';
export const NO_MATCHES = 'No tickets match your filters';
export const UNASSIGNED = 'Unassigned';

/** SPEC's columns in their order, with the queue's beside them; a sortable one names its field. */
/**
 * Every column but the title has a fixed width (the table lays out fixed), so the title takes what is
 * left and nothing scrolls sideways from 1280 px up (docs/decisions.md#queue-layout).
 */
const COLUMNS: { label: string; sort?: TicketSortField; width?: number; also?: { label: string; field: TicketSortField } }[] = [
  { label: 'ID', sort: 'id', width: 64 },
  { label: 'Title' },
  { label: 'User', width: 104 },
  { label: 'Assignee', width: 104 },
  // The SLA countdown stands under the status: the title keeps its room (docs/decisions.md#queue-layout).
  { label: 'Status', sort: 'status', width: 112, also: { label: 'SLA', field: 'slaDueAt' } },
  { label: 'Priority', sort: 'priority', width: 88 },
  { label: 'Created', sort: 'createdAt', width: 92 },
  { label: 'Updated', sort: 'updatedAt', width: 92 },
  { label: 'Last activity', sort: 'lastActivityAt', width: 104 },
  { label: 'Actions', width: 144 },
];

export interface TableSelection {
  selected: ReadonlySet<number>;
  onToggle: (id: number, selected: boolean) => void;
  onTogglePage: (selected: boolean) => void;
}

interface AgentTicketTableProps extends RowActionHandlers {
  rows: Ticket[] | undefined;
  /** Rows from the previous page or filter, shown dimmed while the next answer comes. */
  stale: boolean;
  filtered: boolean;
  skeletonRows: number;
  /** Without these the table is the specification's: no sorting headers, no checkboxes. */
  sort?: TicketSort;
  onSort?: (sort: TicketSort) => void;
  selection?: TableSelection;
  /** The keyboard's row (j/k); it takes the focus so it is visible and Enter opens it. */
  activeId?: number | null;
  onOpen?: (ticket: Ticket) => void;
}

/**
 * The dashboard table (docs/product.md#agent-dashboard). On a phone (under 48em) each ticket is a
 * card with its priority and status first, so nothing scrolls sideways and every action is a full-size target.
 */
export function AgentTicketTable(props: AgentTicketTableProps) {
  const phone = usePhone();
  return <Refreshing active={props.stale}>{phone ? <TicketCards {...props} /> : <TicketTable {...props} />}</Refreshing>;
}

function TicketTable({ rows, filtered, skeletonRows, sort, onSort, selection, activeId, onOpen, ...actions }: AgentTicketTableProps) {
  const pageIds = rows?.map((t) => t.id) ?? [];
  const selectedOnPage = pageIds.filter((id) => selection?.selected.has(id)).length;
  const columnCount = COLUMNS.length + (selection ? 1 : 0);
  return (
    <Table.ScrollContainer minWidth={0} type="native" data-testid="queue-scroll">
      <Table layout="fixed" verticalSpacing="sm" horizontalSpacing="xs" highlightOnHover aria-label="Tickets">
        <Table.Thead>
          <Table.Tr>
            {selection && (
              <Table.Th w={44}>
                <Checkbox
                  aria-label="Select all tickets on this page"
                  checked={pageIds.length > 0 && selectedOnPage === pageIds.length}
                  indeterminate={selectedOnPage > 0 && selectedOnPage < pageIds.length}
                  disabled={pageIds.length === 0}
                  onChange={(event) => selection.onTogglePage(event.currentTarget.checked)}
                />
              </Table.Th>
            )}
            {COLUMNS.map((column) =>
              column.sort && sort && onSort ? (
                <SortHeader
                  key={column.label}
                  label={column.label}
                  field={column.sort}
                  sort={sort}
                  onSort={onSort}
                  width={column.width}
                  also={column.also}
                />
              ) : (
                <Table.Th key={column.label} w={column.width}>
                  {column.label}
                </Table.Th>
              ),
            )}
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {rows === undefined && <SkeletonRows count={skeletonRows} columns={columnCount} />}
          {rows?.length === 0 && (
            <Table.Tr>
              <Table.Td colSpan={columnCount}>
                <Empty filtered={filtered} />
              </Table.Td>
            </Table.Tr>
          )}
          {rows?.map((ticket) => (
            <TicketRow key={ticket.id} ticket={ticket} selection={selection} active={activeId === ticket.id} onOpen={onOpen} {...actions} />
          ))}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}

function Empty({ filtered }: { filtered: boolean }) {
  return filtered ? (
    <EmptyState title={NO_MATCHES} description="Try a different search or clear the filters." icon={<IconFilterSearch size={30} />} />
  ) : (
    <EmptyState title={NO_TICKETS} description="New tickets will appear here as soon as they are raised." icon={<IconInbox size={30} />} />
  );
}

interface RowProps extends RowActionHandlers {
  ticket: Ticket;
  selection?: TableSelection;
  active: boolean;
  onOpen?: (ticket: Ticket) => void;
}

/** Clicks on the row's own controls (links, buttons, checkbox, menu) do what they say, not open the ticket. */
const fromControl = (event: MouseEvent | KeyboardEvent) =>
  event.target instanceof Element && event.target.closest('a, button, input, [role="menuitem"]') !== null;

/** The keyboard's row takes the focus, so the outline shows where j/k are. */
function useFocusWhenActive<T extends HTMLElement>(active: boolean) {
  const ref = useRef<T>(null);
  useEffect(() => {
    if (active && ref.current && !ref.current.contains(document.activeElement)) ref.current.focus({ preventScroll: false });
  }, [active]);
  return ref;
}

function rowHandlers(ticket: Ticket, onOpen?: (ticket: Ticket) => void) {
  if (!onOpen) return {};
  return {
    onClick: (event: MouseEvent) => {
      if (!fromControl(event)) onOpen(ticket);
    },
    onKeyDown: (event: KeyboardEvent) => {
      if (event.key === 'Enter' && !fromControl(event)) onOpen(ticket);
    },
  };
}

const unreadWeight = (ticket: Ticket) => (ticket.unread ? 800 : 600);

/** The unread mark: its own width (never cut short), read out as "New". */
function NewBadge({ size }: { size: 'xs' | 'sm' }) {
  return (
    <Badge size={size} variant="filled" color="blue.8" className={classes.newBadge} data-testid="new-badge">
      New
    </Badge>
  );
}

/** Last 24 hours relative, older as a date; the exact time on hover. */
function When({ iso }: { iso: string }) {
  return (
    <Text size="xs" style={{ whiteSpace: 'nowrap' }} title={formatDateTime(iso)}>
      <time dateTime={iso}>{formatWhen(iso)}</time>
    </Text>
  );
}

function TicketRow({ ticket, selection, active, onOpen, ...actions }: RowProps) {
  const ref = useFocusWhenActive<HTMLTableRowElement>(active);
  const selected = selection?.selected.has(ticket.id) ?? false;
  return (
    <Table.Tr
      ref={ref}
      data-ticket-id={ticket.id}
      data-unread={ticket.unread || undefined}
      data-active={active || undefined}
      data-selected={selected || undefined}
      className={onOpen ? classes.row : undefined}
      tabIndex={onOpen ? (active ? 0 : -1) : undefined}
      {...rowHandlers(ticket, onOpen)}
    >
      {selection && (
        <Table.Td>
          <Checkbox
            aria-label={`Select ticket #${ticket.id}`}
            checked={selected}
            onChange={(event) => selection.onToggle(ticket.id, event.currentTarget.checked)}
          />
        </Table.Td>
      )}
      <Table.Td>
        <Text fw={unreadWeight(ticket)} c={ticket.unread ? undefined : 'dimmed'} size="sm">
          #{ticket.id}
        </Text>
        <TicketViewers ticketId={ticket.id} size="xs" />
      </Table.Td>
      <Table.Td>
        <Stack gap={2} miw={0}>
          <Group gap={6} wrap="nowrap" miw={0}>
            {ticket.unread && <NewBadge size="xs" />}
            <Text fw={unreadWeight(ticket)} size="sm" truncate="end" title={ticket.title || undefined} data-testid="ticket-title">
              {ticket.title || 'No Title'}
            </Text>
          </Group>
          {/* The category leads the excerpt's line: no column of its own, so nothing scrolls sideways. */}
          <Group gap={6} wrap="nowrap" miw={0}>
            <CategoryChip category={ticket.category} size="xs" style={{ flexShrink: 0 }} />
            <Text size="xs" c="dimmed" truncate="end" data-testid="ticket-excerpt">
              {truncate(descriptionOf(ticket), LIMITS.excerpt.agentTable)}
            </Text>
          </Group>
        </Stack>
      </Table.Td>
      <Table.Td>
        <Text size="sm" truncate="end" title={ownerName(ticket)}>
          {ownerName(ticket)}
        </Text>
      </Table.Td>
      <Table.Td>
        <Text size="sm" truncate="end" c={ticket.assignedAgent ? undefined : 'dimmed'} data-testid="ticket-assignee">
          {ticket.assignedAgent?.name ?? UNASSIGNED}
        </Text>
      </Table.Td>
      <Table.Td>
        <Stack gap={4} align="flex-start">
          <StatusChip status={ticket.status} size="sm" className={classes.wrappingChip} />
          {ticket.sla && <SlaBadge sla={ticket.sla} status={ticket.status} size="xs" tt="none" className={classes.wrappingChip} />}
        </Stack>
      </Table.Td>
      <Table.Td style={{ whiteSpace: 'nowrap' }}>
        <PriorityChip priority={ticket.priority} size="sm" />
      </Table.Td>
      <Table.Td>
        <When iso={ticket.createdAt} />
      </Table.Td>
      <Table.Td>
        <When iso={ticket.updatedAt} />
      </Table.Td>
      <Table.Td>
        <When iso={ticket.lastActivityAt} />
      </Table.Td>
      <Table.Td>
        <TicketRowActions ticket={ticket} {...actions} />
      </Table.Td>
    </Table.Tr>
  );
}

function TicketCards({ rows, filtered, skeletonRows, selection, activeId, onOpen, ...actions }: AgentTicketTableProps) {
  const pageIds = rows?.map((t) => t.id) ?? [];
  const selectedOnPage = pageIds.filter((id) => selection?.selected.has(id)).length;
  return (
    <Stack gap="xs" p="xs">
      {selection && pageIds.length > 0 && (
        <Checkbox
          px="xs"
          py={6}
          label="Select all on this page"
          checked={selectedOnPage === pageIds.length}
          indeterminate={selectedOnPage > 0 && selectedOnPage < pageIds.length}
          onChange={(event) => selection.onTogglePage(event.currentTarget.checked)}
        />
      )}
      {rows === undefined && Array.from({ length: skeletonRows }, (_, i) => <Skeleton key={i} h={96} radius="md" />)}
      {rows?.length === 0 && <Empty filtered={filtered} />}
      {/* Only cards in the list: a list may hold only list items (axe aria-required-children). */}
      {rows && rows.length > 0 && (
        <Stack gap="xs" aria-label="Tickets" role="list">
          {rows.map((ticket) => (
            <TicketCard
              key={ticket.id}
              ticket={ticket}
              selection={selection}
              active={activeId === ticket.id}
              onOpen={onOpen}
              {...actions}
            />
          ))}
        </Stack>
      )}
    </Stack>
  );
}

function TicketCard({ ticket, selection, active, onOpen, ...actions }: RowProps) {
  const ref = useFocusWhenActive<HTMLDivElement>(active);
  const selected = selection?.selected.has(ticket.id) ?? false;
  return (
    <Card
      ref={ref}
      withBorder
      padding="sm"
      role="listitem"
      data-ticket-id={ticket.id}
      data-unread={ticket.unread || undefined}
      data-active={active || undefined}
      data-selected={selected || undefined}
      className={classes.card}
      tabIndex={onOpen ? (active ? 0 : -1) : undefined}
      {...rowHandlers(ticket, onOpen)}
    >
      <Stack gap={6}>
        <Group gap="xs" wrap="nowrap" align="flex-start">
          {selection && (
            <Checkbox
              size="md"
              mt={2}
              aria-label={`Select ticket #${ticket.id}`}
              checked={selected}
              onChange={(event) => selection.onToggle(ticket.id, event.currentTarget.checked)}
            />
          )}
          <Stack gap={4} style={{ flex: 1, minWidth: 0 }}>
            <Group gap={6}>
              <PriorityChip priority={ticket.priority} />
              <StatusChip status={ticket.status} />
              <CategoryChip category={ticket.category} />
              {ticket.sla && <SlaBadge sla={ticket.sla} status={ticket.status} />}
              {ticket.unread && <NewBadge size="sm" />}
            </Group>
            <Text fw={unreadWeight(ticket)} size="sm" lineClamp={2}>
              #{ticket.id} {ticket.title || 'No Title'}
            </Text>
            <Text size="xs" c="dimmed">
              {ownerName(ticket)} · {ticket.assignedAgent?.name ?? UNASSIGNED} ·{' '}
              <span title={formatDateTime(ticket.lastActivityAt)}>{formatWhen(ticket.lastActivityAt)}</span>
            </Text>
          </Stack>
        </Group>
        <TicketRowActions ticket={ticket} size="lg" {...actions} />
      </Stack>
    </Card>
  );
}

function SkeletonRows({ count, columns }: { count: number; columns: number }) {
  return Array.from({ length: count }, (_, row) => (
    <Table.Tr key={row}>
      {Array.from({ length: columns }, (_, column) => (
        <Table.Td key={column}>
          <Skeleton h={16} radius="sm" />
        </Table.Td>
      ))}
    </Table.Tr>
  ));
}
