import {
  DEFAULT_TICKET_SORT,
  formatTicketSort,
  hasTicketFilters,
  PRIORITIES,
  TICKET_STATUSES,
  type TicketFilters as Filters,
  type TicketQuery,
  type TicketSort,
  type TicketAssignee,
  type SlaFilter,
  type UserRef,
} from '@helpdesk/protocol';
import { Button, Paper, Select, SimpleGrid, TextInput, type SelectProps } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { IconFilterOff, IconSearch } from '@tabler/icons-react';
import { useEffect, useRef, useState } from 'react';
import { SEARCH_DEBOUNCE_MS } from '../lib/paging';
import { labelledOptions } from '../lib/text';
import { CATEGORY_OPTIONS } from './CategoryChip';
import { SearchChips } from './SearchChips';
import { SLA_FILTER_OPTIONS } from './sla/slaFilter';
import classes from './TicketFilters.module.css';

const STATUS_OPTIONS = labelledOptions(TICKET_STATUSES);
const PRIORITY_OPTIONS = labelledOptions(PRIORITIES);
/** The enum filters every list has, in their boxes' order. */
const ENUM_FILTERS = [
  { field: 'status', label: 'Status', placeholder: 'All statuses', data: STATUS_OPTIONS },
  { field: 'priority', label: 'Priority', placeholder: 'All priorities', data: PRIORITY_OPTIONS },
  { field: 'category', label: 'Category', placeholder: 'All categories', data: CATEGORY_OPTIONS },
] as const;
const NO_FILTERS: Record<keyof Filters, undefined> = {
  status: undefined,
  priority: undefined,
  category: undefined,
  search: undefined,
  assignee: undefined,
  mine: undefined,
  tag: undefined,
  requester: undefined,
  sla: undefined,
};

export interface SortChoice {
  label: string;
  sort: TicketSort;
}

/** The sort box of the tickets page. */
export const LIST_SORTS: readonly SortChoice[] = [
  { label: 'Newest', sort: { field: 'createdAt', descending: true } },
  { label: 'Oldest', sort: { field: 'createdAt', descending: false } },
  { label: 'Recently updated', sort: { field: 'updatedAt', descending: true } },
  { label: 'Priority', sort: { field: 'priority', descending: true } },
];

interface TicketFiltersProps {
  query: TicketQuery;
  /** The fields that changed; whoever holds the query decides the page. */
  onChange: (change: Partial<TicketQuery>) => void;
  /** The sort box's choices. Without them there is no sort box, and Clear Filters leaves the sort alone. */
  sorts?: readonly SortChoice[];
  /** Staff lists: an Assignee box (anyone, me, unassigned, a staff member). */
  assignees?: { staff: UserRef[]; meId: number };
  /** Staff lists: a Tag box offering these tags (the ones in use). */
  tags?: string[];
  /** Staff lists: an SLA box (due soon, overdue, paused, on track). */
  sla?: boolean;
  /** The queue's box reads the search syntax (status:, tag:, requester:…) and shows its terms as chips. */
  syntax?: boolean;
}

/** One of the list's enum filters; cleared, it does not filter. */
function FilterSelect({
  value,
  onPick,
  ...props
}: Pick<SelectProps, 'label' | 'placeholder' | 'data'> & { value: string | undefined; onPick: (value: string | undefined) => void }) {
  return <Select value={value ?? null} onChange={(next) => onPick(next ?? undefined)} clearable {...props} />;
}

/** One row of `slots` columns while they fit, else two rows. */
const lgColumns = (slots: number) => (slots <= 8 ? slots : Math.ceil(slots / 2));

export const ASSIGNEE_ANYONE = 'anyone';
/** An Assignee box's choices: anyone, me, unassigned, then the other staff by name. */
export const assigneeOptions = ({ staff, meId }: { staff: UserRef[]; meId: number }) => [
  { value: ASSIGNEE_ANYONE, label: 'Anyone' },
  { value: 'me', label: 'Me' },
  { value: 'none', label: 'Unassigned' },
  ...staff.filter((person) => person.id !== meId).map((person) => ({ value: String(person.id), label: person.name })),
];
const readAssignee = (value: string | null): TicketAssignee | undefined =>
  !value || value === ASSIGNEE_ANYONE ? undefined : value === 'me' || value === 'none' ? value : Number(value);

/** Search, status, priority, category, an optional sort and Clear Filters above a ticket list (the agent table, /tickets). */
export function TicketFilters({ query, onChange, sorts, assignees, tags, sla = false, syntax = false }: TicketFiltersProps) {
  const search = query.search ?? '';
  // The box shows every keystroke; the query takes the text once typing settles.
  const [text, setText] = useState(search);
  const [debounced] = useDebouncedValue(text.trim(), SEARCH_DEBOUNCE_MS);
  const settled = useRef(debounced);

  useEffect(() => {
    // Only newly settled text is written: a search changed from outside (Back, Clear Filters) is not written back.
    if (debounced === settled.current) return;
    settled.current = debounced;
    if (debounced !== search) onChange({ search: debounced || undefined });
  }, [debounced, search, onChange]);

  // Back/forward or Clear Filters changed the search: the box shows it. The box's own settled text
  // coming back is no such change: a key pressed or a chip removed as it was sent must not be undone.
  const [shown, setShown] = useState(search);
  if (shown !== search) {
    setShown(search);
    if (text.trim() !== search && search !== debounced) setText(search);
  }

  const sortValue = formatTicketSort(query.sort);
  const sorted = sorts !== undefined && sortValue !== formatTicketSort(DEFAULT_TICKET_SORT);
  const clear = () => {
    setText('');
    onChange(sorts ? { ...NO_FILTERS, sort: DEFAULT_TICKET_SORT } : NO_FILTERS);
  };

  return (
    <Paper withBorder radius="md" p="md">
      <SimpleGrid
        // The search box spans two of the columns at lg; more than eight columns (the agent's every box)
        // would cut Clear Filters short at 1280 px, so those take two rows.
        cols={{ base: 2, lg: lgColumns(6 + (sorts ? 1 : 0) + (assignees ? 1 : 0) + (tags ? 1 : 0) + (sla ? 1 : 0)) }}
        spacing="sm"
        verticalSpacing="sm"
        style={{ alignItems: 'end' }}
      >
        <TextInput
          className={classes.search}
          label="Search"
          placeholder={syntax ? 'Search, or status:open tag:vpn requester:ann@example.com' : 'Search title or description'}
          leftSection={<IconSearch size={16} />}
          value={text}
          onChange={(event) => setText(event.currentTarget.value)}
        />
        {ENUM_FILTERS.map(({ field, ...box }) => (
          // The value is one of the box's own options.
          <FilterSelect key={field} {...box} value={query[field]} onPick={(value) => onChange({ [field]: value })} />
        ))}
        {assignees && (
          <Select
            label="Assignee"
            data={assigneeOptions(assignees)}
            value={query.assignee === undefined ? ASSIGNEE_ANYONE : String(query.assignee)}
            onChange={(value) => onChange({ assignee: readAssignee(value) })}
            allowDeselect={false}
            searchable
          />
        )}
        {tags && (
          <Select
            label="Tag"
            placeholder="Any tag"
            // A tag from a link or a view that is no longer in use still shows as chosen.
            data={query.tag && !tags.includes(query.tag) ? [query.tag, ...tags] : tags}
            value={query.tag ?? null}
            onChange={(value) => onChange({ tag: value ?? undefined })}
            clearable
            searchable
          />
        )}
        {sla && (
          <FilterSelect
            label="SLA"
            placeholder="Any service level"
            data={SLA_FILTER_OPTIONS}
            value={query.sla}
            onPick={(value) => onChange({ sla: value as SlaFilter | undefined })}
          />
        )}
        {sorts && (
          <Select
            label="Sort by"
            data={sorts.map((choice) => ({ value: formatTicketSort(choice.sort), label: choice.label }))}
            value={sortValue}
            onChange={(value) => {
              const choice = sorts.find((c) => formatTicketSort(c.sort) === value);
              if (choice) onChange({ sort: choice.sort });
            }}
            allowDeselect={false}
          />
        )}
        <Button
          variant="default"
          leftSection={<IconFilterOff size={16} />}
          onClick={clear}
          disabled={!hasTicketFilters(query) && !sorted && !text.trim()}
        >
          Clear Filters
        </Button>
      </SimpleGrid>
      {syntax && <SearchChips text={text} onChange={setText} />}
    </Paper>
  );
}
