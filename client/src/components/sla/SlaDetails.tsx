import type { TicketStatus } from '@helpdesk/protocol';
import { Group, Stack, Text } from '@mantine/core';
import { formatDateTime } from '../../lib/dates';
import type { SlaClock } from './countdown';
import { SlaBadge } from './SlaBadge';

export const SLA_TEXT = {
  heading: 'Service level',
  none: 'No SLA policy applies to this ticket.',
  firstResponse: 'First response',
  resolution: 'Resolution',
  noTarget: 'No target',
  /** While waiting on the customer a clock has no deadline: time left is kept, not spent. */
  paused: 'Paused',
  answered: (at: string) => `Answered ${formatDateTime(at)}`,
  due: (at: string) => `Due ${formatDateTime(at)}`,
} as const;

function Deadline({ label, text }: { label: string; text: string }) {
  return (
    <Group justify="space-between" gap="xs" wrap="nowrap">
      <Text size="sm" c="dimmed">
        {label}
      </Text>
      <Text size="sm" ta="right">
        {text}
      </Text>
    </Group>
  );
}

/** What a deadline without a date means: none was set, or its clock is paused. */
const undated = (sla: SlaClock) => (sla.state === 'paused' ? SLA_TEXT.paused : SLA_TEXT.noTarget);

/**
 * The ticket page's service level, staff only (docs/product.md#service-levels): the live countdown and
 * both deadlines as dates, or when the first response was given.
 */
export function SlaDetails({ sla, status }: { sla: SlaClock | null; status: TicketStatus }) {
  return (
    <Stack gap={6} data-testid="sla-details">
      <Group justify="space-between" gap="xs">
        <Text size="sm" fw={600}>
          {SLA_TEXT.heading}
        </Text>
        {sla && <SlaBadge sla={sla} status={status} size="md" />}
      </Group>
      {sla ? (
        <>
          <Deadline
            label={SLA_TEXT.firstResponse}
            text={
              sla.firstRespondedAt
                ? SLA_TEXT.answered(sla.firstRespondedAt)
                : sla.firstResponseDueAt
                  ? SLA_TEXT.due(sla.firstResponseDueAt)
                  : undated(sla)
            }
          />
          <Deadline label={SLA_TEXT.resolution} text={sla.resolutionDueAt ? SLA_TEXT.due(sla.resolutionDueAt) : undated(sla)} />
        </>
      ) : (
        <Text size="sm" c="dimmed">
          {SLA_TEXT.none}
        </Text>
      )}
    </Stack>
  );
}
