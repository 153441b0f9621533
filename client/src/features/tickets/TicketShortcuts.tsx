import { ticketQueryToUrl, type TicketListResponse, type TicketQuery } from '@helpdesk/protocol';
import { useQueryClient } from '@tanstack/react-query';
import { useAtomValue } from 'jotai';
import { useState } from 'react';
import { useLocation } from 'wouter';
import { ticketKeys } from '../../api/ticketCache';
import { ticketsApi } from '../../api/tickets';
import { ShortcutHelp } from '../../components/ShortcutHelp';
import { useShortcuts } from '../../lib/useShortcuts';
import { agentQueryAtom } from '../../state/agentQuery';
import { lastQueueOrder, rememberQueueOrder, stepInQueue, stepsOffPage } from '../../state/queueOrder';

/**
 * The queue's keys on a ticket page (staff): `j`/`k` open the next/previous ticket of the queue as last
 * sorted and filtered (its page in the cache, else the one the dashboard last showed: also after a
 * reload or on a deep link), reading the next or previous page past its ends; `r` focuses the reply
 * box, `?` lists the keys. Rendered by the ticket page.
 */
export function TicketShortcuts({ ticketId }: { ticketId: number }) {
  const client = useQueryClient();
  const query = useAtomValue(agentQueryAtom);
  const [, navigate] = useLocation();
  const [help, setHelp] = useState(false);

  /** The page `by` steps onto from this one, read like the dashboard reads it; its first ticket or its last. */
  const pageBeyond = async (shown: TicketQuery, by: number) => {
    const page = shown.page + by;
    if (page < 1) return undefined;
    const next: TicketQuery = { ...shown, page };
    const list = await client.query({ queryKey: ticketKeys.list(next), queryFn: ({ signal }) => ticketsApi.list(next, signal) });
    const ids = list.data.map((t) => t.id);
    if (ids.length === 0) return undefined;
    rememberQueueOrder(ids, ticketQueryToUrl(next));
    return by > 0 ? ids[0] : ids.at(-1);
  };

  const step = async (by: number) => {
    const cached = client.getQueryData<TicketListResponse>(ticketKeys.list(query))?.data.map((t) => t.id);
    let order: { ids: number[]; page?: TicketQuery };
    if (cached?.includes(ticketId)) order = { ids: cached, page: query };
    else {
      const kept = lastQueueOrder();
      const { agentQueryFromUrl } = await import('../queue/queryFromUrl');
      order = { ids: kept.ids, page: kept.query === undefined ? undefined : agentQueryFromUrl(kept.query) };
    }
    const next =
      stepInQueue(order.ids, ticketId, by) ??
      (order.page && stepsOffPage(order.ids, ticketId, by) ? await pageBeyond(order.page, by).catch(() => undefined) : undefined);
    if (next !== undefined) navigate(`/ticket/${next}`);
  };
  useShortcuts({
    j: () => void step(1),
    k: () => void step(-1),
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
