import type { TicketSort, TicketSortField } from '@helpdesk/protocol';
import { Table, UnstyledButton } from '@mantine/core';
import { IconArrowDown, IconArrowUp, IconArrowsSort } from '@tabler/icons-react';
import classes from './AgentTicketTable.module.css';

/** The first click on a column: dates, ids and priority newest/most urgent first; status in its lifecycle order. */
export const FIRST_DESCENDING: Record<TicketSortField, boolean> = {
  id: true,
  createdAt: true,
  updatedAt: true,
  lastActivityAt: true,
  priority: true,
  status: false,
  // The nearest deadline first.
  slaDueAt: false,
};

/** A clicked sort: the same column flips, another starts at its first direction. */
export const nextSort = (current: TicketSort, field: TicketSortField): TicketSort =>
  current.field === field ? { field, descending: !current.descending } : { field, descending: FIRST_DESCENDING[field] };

interface SortHeaderProps {
  label: string;
  field: TicketSortField;
  sort: TicketSort;
  onSort: (sort: TicketSort) => void;
  width?: number;
  /** A second field the same column sorts by. */
  also?: { label: string; field: TicketSortField };
}

/** The button that sorts by one field, its arrow showing the order. */
function SortButton({ label, field, sort, onSort }: Omit<SortHeaderProps, 'width' | 'also'>) {
  const active = sort.field === field;
  const Icon = !active ? IconArrowsSort : sort.descending ? IconArrowDown : IconArrowUp;
  return (
    <UnstyledButton className={classes.sortButton} onClick={() => onSort(nextSort(sort, field))} data-active={active || undefined}>
      {label}
      <Icon size={14} aria-hidden />
    </UnstyledButton>
  );
}

/**
 * A column header that sorts the list; screen readers hear the order through aria-sort. A column
 * showing two things (status over the SLA countdown) sorts by either, one button each.
 */
export function SortHeader({ label, field, sort, onSort, width, also }: SortHeaderProps) {
  const fields = [field, ...(also ? [also.field] : [])];
  const active = fields.includes(sort.field);
  return (
    <Table.Th w={width} aria-sort={active ? (sort.descending ? 'descending' : 'ascending') : 'none'}>
      <SortButton label={label} field={field} sort={sort} onSort={onSort} />
      {also && (
        <>
          <br />
          <SortButton label={also.label} field={also.field} sort={sort} onSort={onSort} />
        </>
      )}
    </Table.Th>
  );
}
