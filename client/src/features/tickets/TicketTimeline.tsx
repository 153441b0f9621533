import type { HistoryEntry, HistoryType } from '@helpdesk/protocol';
import { Text, Timeline } from '@mantine/core';
import {
  IconArrowBackUp,
  IconArrowMerge,
  IconCirclePlus,
  IconFlag,
  IconMailOff,
  IconMessage,
  IconNotes,
  IconPencil,
  IconRefresh,
  IconTag,
  IconUserCheck,
} from '@tabler/icons-react';
import type { ComponentType } from 'react';
import { formatDateTime } from '../../lib/dates';
import { describeHistory } from './timeline';

const ICONS: Record<HistoryType, ComponentType<{ size?: number }>> = {
  created: IconCirclePlus,
  status: IconRefresh,
  priority: IconFlag,
  edited: IconPencil,
  resolution: IconNotes,
  assigned: IconUserCheck,
  comment: IconMessage,
  follow_up: IconArrowBackUp,
  email_bounced: IconMailOff,
  tags: IconTag,
  merged: IconArrowMerge,
};

/** The ticket's history, oldest first, as the Status Timeline (docs/product.md#ticket-lifecycle). */
export function TicketTimeline({ history }: { history: HistoryEntry[] }) {
  if (history.length === 0) return <Text c="dimmed">No activity yet.</Text>;
  return (
    <Timeline active={history.length - 1} bulletSize={26} lineWidth={2} aria-label="Status timeline">
      {history.map((entry) => {
        const Icon = ICONS[entry.type];
        return (
          <Timeline.Item key={entry.id} bullet={<Icon size={14} />} title={describeHistory(entry)} data-history-type={entry.type}>
            <Text size="xs" c="dimmed">
              by {entry.actor.name} · <time dateTime={entry.createdAt}>{formatDateTime(entry.createdAt)}</time>
            </Text>
          </Timeline.Item>
        );
      })}
    </Timeline>
  );
}
