import type { TicketStats } from '@helpdesk/protocol';
import { IconAlertTriangle, IconCircleCheck, IconHourglass, IconInbox, IconProgress, IconTicket } from '@tabler/icons-react';
import { CountCards } from '../../components/CountCards';

/** The six count cards of the agent dashboard, coloured like the status chips (docs/product.md#agent-dashboard). */
export function StatCards({ stats, loading }: { stats: TicketStats | undefined; loading: boolean }) {
  return (
    <CountCards
      loading={loading}
      cols={{ base: 2, sm: 3, lg: 6 }}
      cards={[
        { key: 'total', label: 'Total', value: stats?.total, color: 'blue', icon: IconTicket },
        { key: 'open', label: 'Open', value: stats?.open, color: 'red', icon: IconInbox },
        { key: 'in_progress', label: 'In Progress', value: stats?.in_progress, color: 'orange', icon: IconProgress },
        { key: 'pending', label: 'Waiting on customer', value: stats?.pending, color: 'cyan', icon: IconHourglass },
        { key: 'resolved', label: 'Resolved', value: stats?.resolved, color: 'green', icon: IconCircleCheck },
        { key: 'urgent', label: 'Urgent', value: stats?.urgent, color: 'grape', icon: IconAlertTriangle },
      ]}
    />
  );
}
