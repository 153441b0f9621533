import {
  PRIORITIES,
  TICKET_STATUSES,
  type BulkChanges,
  type BulkUpdateResponse,
  type Category,
  type Priority,
  type TicketStatus,
  type UserRef,
} from '@helpdesk/protocol';
import { Alert, Button, Group, List, Paper, Select, TagsInput, Text } from '@mantine/core';
import { IconCheck, IconX } from '@tabler/icons-react';
import { useState } from 'react';
import { normalTags } from '../../api/tagSuggestions';
import { CATEGORY_OPTIONS } from '../../components/CategoryChip';
import { labelledOptions } from '../../lib/text';

const STATUS_OPTIONS = labelledOptions(TICKET_STATUSES);
const PRIORITY_OPTIONS = labelledOptions(PRIORITIES);
const UNASSIGN = 'none';

interface BulkBarProps {
  count: number;
  staff: UserRef[];
  meId: number;
  /** Tags in use, offered in the add and remove boxes. */
  tagSuggestions: string[];
  applying: boolean;
  onApply: (changes: BulkChanges) => void;
  onClear: () => void;
}

/** What a bulk change did: how many changed, and each failure with its reason. */
export function bulkResultText(result: Pick<BulkUpdateResponse, 'updated' | 'failed'>): string {
  const changed = `${result.updated.length} ${result.updated.length === 1 ? 'ticket' : 'tickets'} updated`;
  return result.failed.length === 0 ? changed : `${changed}, ${result.failed.length} failed`;
}

/** The bar over the table while tickets are selected: one status, priority, category, assignee and tags to add or remove for all of them. */
export function BulkBar({ count, staff, meId, tagSuggestions, applying, onApply, onClear }: BulkBarProps) {
  const [status, setStatus] = useState<string | null>(null);
  const [priority, setPriority] = useState<string | null>(null);
  const [category, setCategory] = useState<string | null>(null);
  const [assignee, setAssignee] = useState<string | null>(null);
  const [addTags, setAddTags] = useState<string[]>([]);
  const [removeTags, setRemoveTags] = useState<string[]>([]);
  const assigneeOptions = [
    { value: String(meId), label: 'Me' },
    { value: UNASSIGN, label: 'Unassigned' },
    ...staff.filter((person) => person.id !== meId).map((person) => ({ value: String(person.id), label: person.name })),
  ];
  const changes: BulkChanges = {
    ...(status && { status: status as TicketStatus }),
    ...(priority && { priority: priority as Priority }),
    ...(category && { category: category as Category }),
    ...(assignee && { assignedAgentId: assignee === UNASSIGN ? null : Number(assignee) }),
    ...(addTags.length > 0 && { addTags }),
    ...(removeTags.length > 0 && { removeTags }),
  };
  const nothing = Object.keys(changes).length === 0;

  return (
    <Paper withBorder radius="md" p="sm" role="region" aria-label="Bulk actions" bg="blue.0">
      <Group gap="sm" align="flex-end" wrap="wrap">
        <Text fw={700} size="sm" mb={8} aria-live="polite">
          {count} selected
        </Text>
        <Select label="Set status" placeholder="Keep" data={STATUS_OPTIONS} value={status} onChange={setStatus} clearable w={150} />
        <Select label="Set priority" placeholder="Keep" data={PRIORITY_OPTIONS} value={priority} onChange={setPriority} clearable w={150} />
        <Select label="Set category" placeholder="Keep" data={CATEGORY_OPTIONS} value={category} onChange={setCategory} clearable w={150} />
        <Select
          label="Set assignee"
          placeholder="Keep"
          data={assigneeOptions}
          value={assignee}
          onChange={setAssignee}
          clearable
          searchable
          w={180}
        />
        <TagsInput
          label="Add tags"
          placeholder={addTags.length === 0 ? 'None' : undefined}
          data={tagSuggestions}
          value={addTags}
          onChange={(tags) => setAddTags(normalTags(tags))}
          clearable
          w={200}
        />
        <TagsInput
          label="Remove tags"
          placeholder={removeTags.length === 0 ? 'None' : undefined}
          data={tagSuggestions}
          value={removeTags}
          onChange={(tags) => setRemoveTags(normalTags(tags))}
          clearable
          w={200}
        />
        <Button leftSection={<IconCheck size={16} />} onClick={() => onApply(changes)} disabled={nothing} loading={applying}>
          Apply to {count}
        </Button>
        <Button variant="default" leftSection={<IconX size={16} />} onClick={onClear} disabled={applying}>
          Clear selection
        </Button>
      </Group>
    </Paper>
  );
}

/** The answer of the last bulk change, kept on screen until dismissed or the next one. */
export function BulkResult({ result, onClose }: { result: BulkUpdateResponse; onClose: () => void }) {
  const failed = result.failed.length > 0;
  return (
    <Alert
      color={failed ? 'orange' : 'green'}
      title={bulkResultText(result)}
      withCloseButton
      closeButtonLabel="Dismiss"
      onClose={onClose}
      role="status"
    >
      {failed && (
        <List size="sm">
          {result.failed.map((failure) => (
            <List.Item key={failure.id}>
              #{failure.id}: {failure.message}
            </List.Item>
          ))}
        </List>
      )}
    </Alert>
  );
}
