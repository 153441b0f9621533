import { LIMITS, MESSAGES } from '@helpdesk/protocol';
import { Text } from '@mantine/core';
import { listGoesDeeper, pagesOffered } from '../lib/paging';

interface DeepPagesNoteProps {
  page: number;
  limit: number;
  total: number;
  totalCapped?: boolean;
}

/**
 * On the deepest page a ticket list's pager offers, when the list goes on past it: the server pages
 * only so deep (docs/decisions.md#scale), so this says how to reach the rest instead (narrowing).
 */
export function DeepPagesNote({ page, limit, total, totalCapped }: DeepPagesNoteProps) {
  if (page < pagesOffered(total, limit) || !listGoesDeeper(total, limit, totalCapped)) return null;
  return (
    <Text size="sm" c="dimmed" role="note" px="md" pb="sm">
      {MESSAGES.tickets.pageTooDeep(LIMITS.ticketList.depth)}
    </Text>
  );
}
