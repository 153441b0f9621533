import { LIMITS } from '@helpdesk/protocol';
import { Button, Group, NativeSelect, Paper, TextInput } from '@mantine/core';
import { IconCategory, IconFilterOff, IconSearch } from '@tabler/icons-react';
import { useState, type SubmitEvent } from 'react';
import { CATEGORY_OPTIONS } from '../../components/CategoryChip';
import { isCategory, type KnowledgeFilters } from './filters';

const CATEGORY_FILTER = [{ value: '', label: 'All categories' }, ...CATEGORY_OPTIONS];

interface Props {
  filters: KnowledgeFilters;
  onApply: (change: Partial<KnowledgeFilters>) => void;
  onClear: () => void;
}

/**
 * Search box (Enter searches too), category filter, Search and Clear Filters (docs/product.md#knowledge-base). Typing only
 * edits the box; the search applies on Enter or Search, the category as soon as it is picked.
 */
export function KnowledgeFilterBar({ filters, onApply, onClear }: Props) {
  const [draft, setDraft] = useState(filters.search);
  // Back, Forward and shared links change the applied search under the box: the box then shows it.
  const [shownSearch, setShownSearch] = useState(filters.search);
  if (shownSearch !== filters.search) {
    setShownSearch(filters.search);
    setDraft(filters.search);
  }

  const submit = (event: SubmitEvent<HTMLFormElement>) => {
    event.preventDefault();
    onApply({ search: draft.trim() });
  };

  return (
    <Paper withBorder radius="md" p="md">
      <form onSubmit={submit} role="search" aria-label="Article search">
        <Group align="flex-end" gap="sm">
          <TextInput
            label="Search articles"
            placeholder="Search by title, content or keyword"
            leftSection={<IconSearch size={16} />}
            value={draft}
            onChange={(event) => setDraft(event.currentTarget.value)}
            maxLength={LIMITS.search.max}
            style={{ flex: '1 1 260px' }}
          />
          <NativeSelect
            label="Category"
            data={CATEGORY_FILTER}
            leftSection={<IconCategory size={16} />}
            value={filters.category}
            onChange={(event) => {
              const value = event.currentTarget.value;
              onApply({ search: draft.trim(), category: isCategory(value) ? value : '' });
            }}
            style={{ flex: '0 1 220px' }}
          />
          <Group gap="sm" wrap="nowrap">
            <Button type="submit" leftSection={<IconSearch size={16} />}>
              Search
            </Button>
            <Button
              variant="default"
              leftSection={<IconFilterOff size={16} />}
              onClick={() => {
                setDraft('');
                onClear();
              }}
            >
              Clear Filters
            </Button>
          </Group>
        </Group>
      </form>
    </Paper>
  );
}
