import type { TicketCsat } from '@helpdesk/protocol';
import { Badge, Card, Group, Stack, Text, Title } from '@mantine/core';
import { RATING_LOOK } from '../../components/csat/ratings';
import { formatDateTime } from '../../lib/dates';
import { TICKET_TEXT } from './texts';

/** Staff: the owner's answer to the ticket's newest survey, kept live by csat-received (docs/product.md#ticket-page). */
export function StaffCsatSection({ csat }: { csat: TicketCsat }) {
  const { label, icon: Icon, color } = RATING_LOOK[csat.rating];
  return (
    <Card withBorder radius="md" padding="lg" component="section" aria-label={TICKET_TEXT.csatRating} data-testid="csat-rating">
      <Title order={2} size="h4" mb="sm">
        {TICKET_TEXT.csatRating}
      </Title>
      <Stack gap="xs">
        <Group gap="xs" justify="space-between">
          <Badge size="lg" variant="light" color={color} leftSection={<Icon size={16} aria-hidden />}>
            {label}
          </Badge>
          <Text size="sm" c="dimmed">
            {formatDateTime(csat.at)}
          </Text>
        </Group>
        {csat.comment ? (
          <Text size="sm" style={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}>
            {csat.comment}
          </Text>
        ) : (
          <Text size="sm" c="dimmed">
            {TICKET_TEXT.csatNoComment}
          </Text>
        )}
      </Stack>
    </Card>
  );
}
