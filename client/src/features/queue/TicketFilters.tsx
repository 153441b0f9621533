import { PRIORITIES, TICKET_STATUSES, type Priority, type TicketStatus } from '@helpdesk/protocol';
import { Button, Grid, Paper, Select, TextInput } from '@mantine/core';
import { IconFilterOff, IconSearch } from '@tabler/icons-react';
import { useAtomValue, useSetAtom } from 'jotai';
import { labelledOptions } from '../../lib/text';
import { agentFiltersAtom, changeAgentFilterAtom, clearAgentFiltersAtom, hasAgentFilters } from './filters';

const STATUS_OPTIONS = labelledOptions(TICKET_STATUSES);
const PRIORITY_OPTIONS = labelledOptions(PRIORITIES);

/** SPEC §2: free-text search, status, priority and Clear Filters; the atoms reset the page. */
export function TicketFilters() {
  const filters = useAtomValue(agentFiltersAtom);
  const change = useSetAtom(changeAgentFilterAtom);
  const clear = useSetAtom(clearAgentFiltersAtom);

  return (
    <Paper withBorder p="md" radius="md">
      <Grid align="flex-end" gutter="md">
        <Grid.Col span={{ base: 12, md: 5 }}>
          <TextInput
            label="Search"
            placeholder="Search title or description"
            leftSection={<IconSearch size={16} />}
            value={filters.search}
            onChange={(event) => change({ search: event.currentTarget.value })}
          />
        </Grid.Col>
        <Grid.Col span={{ base: 6, md: 2.5 }}>
          <Select
            label="Status"
            placeholder="All statuses"
            data={STATUS_OPTIONS}
            value={filters.status || null}
            onChange={(value) => change({ status: (value ?? '') as TicketStatus | '' })}
            clearable
          />
        </Grid.Col>
        <Grid.Col span={{ base: 6, md: 2.5 }}>
          <Select
            label="Priority"
            placeholder="All priorities"
            data={PRIORITY_OPTIONS}
            value={filters.priority || null}
            onChange={(value) => change({ priority: (value ?? '') as Priority | '' })}
            clearable
          />
        </Grid.Col>
        <Grid.Col span={{ base: 12, md: 2 }}>
          <Button fullWidth variant="light" color="gray" leftSection={<IconFilterOff size={16} />} onClick={clear} disabled={!hasAgentFilters(filters)}>
            Clear Filters
          </Button>
        </Grid.Col>
      </Grid>
    </Paper>
  );
}
