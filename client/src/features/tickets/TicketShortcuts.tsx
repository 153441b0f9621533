import type { TicketListResponse } from '@helpdesk/protocol';
import { useQueryClient } from '@tanstack/react-query';
import { useAtomValue } from 'jotai';
import { useState } from 'react';
import { useLocation } from 'wouter';
import { ticketKeys } from '../../api/ticketCache';
import { ShortcutHelp } from '../../components/ShortcutHelp';
import { useShortcuts } from '../../lib/useShortcuts';
import { agentQueryAtom } from '../../state/agentQuery';

/**
 * The queue's keys on a ticket page (staff): `j`/`k` open the next/previous ticket of the dashboard's
 * current page, `r` focuses the reply box, `?` lists the keys. Rendered by the ticket page.
 */
export function TicketShortcuts({ ticketId }: { ticketId: number }) {
  const client = useQueryClient();
  const query = useAtomValue(agentQueryAtom);
  const [, navigate] = useLocation();
  const [help, setHelp] = useState(false);
  const step = (by: number) => {
    const rows = client.getQueryData<TicketListResponse>(ticketKeys.list(query))?.data ?? [];
    const at = rows.findIndex((t) => t.id === ticketId);
    const next = at === -1 ? undefined : rows[at + by];
    if (next) navigate(`/ticket/${next.id}`);
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
