import { PRIORITIES, TICKET_STATUSES, type Priority, type TicketStatus } from '@helpdesk/protocol';
import { Button, Paper, Select, SimpleGrid, TextInput } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { IconFilterOff, IconSearch } from '@tabler/icons-react';
import { useEffect, useState } from 'react';
import { SEARCH_DEBOUNCE_MS } from '../../lib/paging';
import { labelledOptions } from '../../lib/text';
import { DEFAULT_LIST_STATE, hasFilters, SORT_OPTIONS, type ListState, type SortValue } from './listUrl';
import classes from './TicketFilters.module.css';

const STATUS_OPTIONS = labelledOptions(TICKET_STATUSES);
const PRIORITY_OPTIONS = labelledOptions(PRIORITIES);

/** Search, status, priority and sort of the tickets page. */
export function TicketFilters({ state, onChange }: { state: ListState; onChange: (change: Partial<ListState>) => void }) {
  const [text, setText] = useState(state.search);
  const [debounced] = useDebouncedValue(text.trim(), SEARCH_DEBOUNCE_MS);

  useEffect(() => {
    if (debounced !== state.search) onChange({ search: debounced });
    // Runs on a settled keystroke only: a URL change alone (Back, Clear Filters) must not write back.
  }, [debounced]);

  // Back/forward or Clear Filters changed the URL: show what it says.
  useEffect(() => {
    setText((current) => (current.trim() === state.search ? current : state.search));
  }, [state.search]);

  const clear = () => {
    setText('');
    onChange({ search: '', status: '', priority: '', sort: DEFAULT_LIST_STATE.sort });
  };

  return (
    <Paper withBorder radius="md" p="md">
      <SimpleGrid cols={{ base: 2, lg: 5 }} spacing="sm" verticalSpacing="sm" style={{ alignItems: 'end' }}>
        <TextInput
          className={classes.search}
          label="Search"
          placeholder="Search title or description"
          leftSection={<IconSearch size={16} />}
          value={text}
          onChange={(event) => setText(event.currentTarget.value)}
        />
        <Select
          label="Status"
          placeholder="All statuses"
          data={STATUS_OPTIONS}
          value={state.status || null}
          onChange={(value) => onChange({ status: (value ?? '') as TicketStatus | '' })}
          clearable
        />
        <Select
          label="Priority"
          placeholder="All priorities"
          data={PRIORITY_OPTIONS}
          value={state.priority || null}
          onChange={(value) => onChange({ priority: (value ?? '') as Priority | '' })}
          clearable
        />
        <Select
          label="Sort by"
          data={SORT_OPTIONS.map((o) => ({ ...o }))}
          value={state.sort}
          onChange={(value) => value && onChange({ sort: value as SortValue })}
          allowDeselect={false}
        />
        <Button variant="default" leftSection={<IconFilterOff size={16} />} onClick={clear} disabled={!hasFilters(state) && state.sort === DEFAULT_LIST_STATE.sort && !text}>
          Clear Filters
        </Button>
      </SimpleGrid>
    </Paper>
  );
}
