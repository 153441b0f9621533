import type { Ticket } from '@helpdesk/protocol';
import { Alert, Button, Group, Stack, Table, Text } from '@mantine/core';
import { IconAlertTriangle, IconArrowBackUp, IconRepeat } from '@tabler/icons-react';
import { showField } from './collision';

export const CONFLICT_TEXT = {
  title: 'Someone else changed this ticket',
  reapply: 'Re-apply my changes',
  discard: 'Discard my changes',
} as const;

const LABELS: Record<string, string> = {
  title: 'Title',
  description: 'Description',
  priority: 'Priority',
  category: 'Category',
  status: 'Status',
  resolutionNotes: 'Resolution notes',
  assignedAgent: 'Assigned to',
};

interface ConflictReviewProps {
  /** The message of the 409 (docs/api.md#optimistic-concurrency), shown word for word. */
  message: string;
  /** The ticket the form was opened on. */
  base: Ticket;
  /** The ticket as it is now, from the 409. */
  current: Ticket;
  /** What this person was saving, field by field. */
  mine: Partial<Record<string, unknown>>;
  busy?: boolean;
  onReapply: () => void;
  onDiscard: () => void;
}

/**
 * A 409 on an edit (docs/product.md#working-a-ticket-together): what the other person changed beside what
 * this person tried to save, then re-apply (saving on top of the current version) or discard.
 */
export function ConflictReview({ message, base, current, mine, busy, onReapply, onDiscard }: ConflictReviewProps) {
  const theirs = Object.keys(LABELS).filter((f) => JSON.stringify(base[f as keyof Ticket]) !== JSON.stringify(current[f as keyof Ticket]));
  const fields = [...new Set([...theirs, ...Object.keys(mine).filter((f) => f in LABELS)])];
  return (
    <Alert
      color="orange"
      variant="light"
      icon={<IconAlertTriangle />}
      title={CONFLICT_TEXT.title}
      role="alert"
      data-testid="conflict"
      // The default orange title is too faint on its tint (contrast ≥ 4.5:1).
      styles={{ title: { color: 'var(--mantine-color-text)' } }}
    >
      <Stack gap="sm">
        <Text size="sm">{message}</Text>
        {current.updatedBy && (
          <Text size="sm">
            Last change by <b>{current.updatedBy.name}</b>.
          </Text>
        )}
        <Table.ScrollContainer minWidth={320}>
          <Table withTableBorder withColumnBorders fz="sm" verticalSpacing={4}>
            <Table.Thead>
              <Table.Tr>
                <Table.Th scope="col">Field</Table.Th>
                <Table.Th scope="col">Their version</Table.Th>
                <Table.Th scope="col">Your edit</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {fields.map((f) => (
                <Table.Tr key={f} bg={theirs.includes(f) ? 'var(--mantine-color-orange-light)' : undefined}>
                  <Table.Th scope="row">{LABELS[f]}</Table.Th>
                  <Table.Td>{showField(f, current[f as keyof Ticket])}</Table.Td>
                  <Table.Td>
                    {f in mine ? (
                      showField(f, mine[f])
                    ) : (
                      <Text c="dimmed" span size="sm">
                        unchanged
                      </Text>
                    )}
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
        <Group gap="xs" justify="flex-end">
          <Button variant="default" leftSection={<IconArrowBackUp size={16} />} onClick={onDiscard} disabled={busy}>
            {CONFLICT_TEXT.discard}
          </Button>
          <Button leftSection={<IconRepeat size={16} />} onClick={onReapply} loading={busy}>
            {CONFLICT_TEXT.reapply}
          </Button>
        </Group>
      </Stack>
    </Alert>
  );
}
