import { LIMITS, type TicketStats } from '@helpdesk/protocol';
import { IconAlertTriangle, IconCircleCheck, IconHourglass, IconInbox, IconProgress, IconTicket } from '@tabler/icons-react';
import { CountCards } from '../../components/CountCards';

/**
 * The six count cards of the agent dashboard, coloured like the status chips (docs/product.md#agent-dashboard).
 * `capped` is the stats' `totalCapped`: a search counted up to the cap, so the total, and any card that
 * reached the cap among the matches counted, may be more (docs/api.md#ticket-endpoints).
 */
export function StatCards({ stats, capped, loading }: { stats: TicketStats | undefined; capped?: boolean; loading: boolean }) {
  const card = (key: keyof TicketStats) => {
    const value = stats?.[key];
    return { key, value, capped: Boolean(capped) && value !== undefined && value >= LIMITS.ticketList.countCap };
  };
  return (
    <CountCards
      loading={loading}
      cols={{ base: 2, sm: 3, lg: 6 }}
      cards={[
        { ...card('total'), label: 'Total', color: 'blue', icon: IconTicket },
        { ...card('open'), label: 'Open', color: 'red', icon: IconInbox },
        { ...card('in_progress'), label: 'In Progress', color: 'orange', icon: IconProgress },
        { ...card('pending'), label: 'Waiting on customer', color: 'cyan', icon: IconHourglass },
        { ...card('resolved'), label: 'Resolved', color: 'green', icon: IconCircleCheck },
        { ...card('urgent'), label: 'Urgent', color: 'grape', icon: IconAlertTriangle },
      ]}
    />
  );
}
