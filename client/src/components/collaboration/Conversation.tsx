import { Group, Loader, Paper, ScrollArea, Stack, Text } from '@mantine/core';
import { fromNow } from '../../lib/dates';
import { useTicket } from '../../api/useTicket';
import { NoteBadge } from './NoteBadge';

/** How many of the latest comments a quick reply shows above its box. */
const SHOWN = 5;

/** The latest comments of a ticket, notes tinted, for answering it without opening it (Quick Reply). */
export function Conversation({ ticketId }: { ticketId: number }) {
  const { ticket, isPending } = useTicket(ticketId);
  if (isPending) return <Loader size="sm" role="status" aria-label="Loading the conversation" />;
  if (!ticket) return null;
  const latest = ticket.comments.slice(-SHOWN);
  return (
    <Stack gap={6} aria-label="Latest comments" component="section">
      <Text size="sm" style={{ whiteSpace: 'pre-wrap' }} lineClamp={3} c="dimmed">
        {ticket.description}
      </Text>
      {latest.length === 0 ? (
        <Text size="sm" c="dimmed">
          No comments yet.
        </Text>
      ) : (
        <ScrollArea.Autosize mah={220}>
          <Stack gap={6}>
            {latest.map((c) => (
              <Paper key={c.id} p="xs" radius="sm" withBorder bg={c.internal ? 'var(--mantine-color-yellow-0)' : undefined}>
                <Group gap={6}>
                  <Text size="xs" fw={700}>
                    {c.author.name}
                  </Text>
                  {c.internal && <NoteBadge />}
                  <Text size="xs" c="dimmed">
                    {fromNow(c.createdAt)}
                  </Text>
                </Group>
                <Text size="sm" style={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }} lineClamp={4}>
                  {c.content}
                </Text>
              </Paper>
            ))}
          </Stack>
        </ScrollArea.Autosize>
      )}
    </Stack>
  );
}
