import { Alert, Button, Group, List, Stack, Text } from '@mantine/core';
import type { Collision } from './collision';

export const COLLISION_TEXT = {
  title: 'This ticket changed while you were writing',
  sendAnyway: 'Send anyway',
  review: 'Review first',
} as const;

/**
 * What others did to a ticket since the agent started answering it (collision.ts): the field changes,
 * then their replies and notes, and the choice to look first or send anyway. The reply box and
 * Quick Reply both show it before sending (docs/product.md#working-a-ticket-together).
 */
export function CollisionNotice({
  found,
  sending,
  onReview,
  onSendAnyway,
}: {
  found: Collision;
  sending: boolean;
  onReview: () => void;
  onSendAnyway: () => void;
}) {
  return (
    <Stack gap="md" data-testid="collision">
      {found.changes.length > 0 && (
        <Alert color="orange" variant="light" title="Changed">
          <List size="sm">
            {found.changes.map((change) => (
              <List.Item key={change}>{change}</List.Item>
            ))}
          </List>
        </Alert>
      )}
      {found.comments.map((c) => (
        <Alert
          key={c.id}
          color={c.internal ? 'yellow' : 'blue'}
          variant="light"
          title={`${c.author.name} ${c.internal ? 'added a note' : 'replied'}`}
        >
          <Text size="sm" style={{ whiteSpace: 'pre-wrap' }} lineClamp={6}>
            {c.content}
          </Text>
        </Alert>
      ))}
      <Group justify="flex-end" gap="xs">
        <Button variant="default" onClick={onReview}>
          {COLLISION_TEXT.review}
        </Button>
        <Button loading={sending} onClick={onSendAnyway}>
          {COLLISION_TEXT.sendAnyway}
        </Button>
      </Group>
    </Stack>
  );
}
