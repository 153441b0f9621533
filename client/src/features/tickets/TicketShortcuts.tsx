import type { TicketListResponse } from '@helpdesk/protocol';
import { useQueryClient } from '@tanstack/react-query';
import { useAtomValue } from 'jotai';
import { useState } from 'react';
import { useLocation } from 'wouter';
import { ticketKeys } from '../../api/ticketCache';
import { ShortcutHelp } from '../../components/ShortcutHelp';
import { useShortcuts } from '../../lib/useShortcuts';
import { agentQueryAtom } from '../../state/agentQuery';
import { lastQueueOrder, stepInQueue } from '../../state/queueOrder';

/**
 * The queue's keys on a ticket page (staff): `j`/`k` open the next/previous ticket of the dashboard's
 * current page (kept for the tab, so also after a reload), `r` focuses the reply box, `?` lists the keys. Rendered by the ticket page.
 */
export function TicketShortcuts({ ticketId }: { ticketId: number }) {
  const client = useQueryClient();
  const query = useAtomValue(agentQueryAtom);
  const [, navigate] = useLocation();
  const [help, setHelp] = useState(false);
  const step = (by: number) => {
    // The cached page when the queue was opened in this session, else the order it last showed (a reload, a deep link).
    const cached = client.getQueryData<TicketListResponse>(ticketKeys.list(query))?.data.map((t) => t.id);
    const next = stepInQueue(cached?.includes(ticketId) ? cached : lastQueueOrder(), ticketId, by);
    if (next !== undefined) navigate(`/ticket/${next}`);
  };
  useShortcuts({
    j: () => step(1),
    k: () => step(-1),
    r: (event) => {
      const box = document.querySelector<HTMLTextAreaElement>('textarea[data-reply-box]');
      if (!box) return;
      event.preventDefault();
      box.focus();
    },
    '?': () => setHelp(true),
  });
  return <ShortcutHelp opened={help} onClose={() => setHelp(false)} />;
}
