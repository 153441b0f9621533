import type { TicketStatus } from '@helpdesk/protocol';
import { Badge, VisuallyHidden, type BadgeProps } from '@mantine/core';
import { IconAlertTriangle, IconCircleCheck, IconClockHour4, IconFlame, IconPlayerPause } from '@tabler/icons-react';
import { useCallback, useMemo } from 'react';
import { formatDateTime } from '../../lib/dates';
import { useClock } from './clock';
import { countdown, type Countdown, type SlaClock, type SlaTone } from './countdown';

/** Amber on warning, red (filled, so it stands out in a row of light chips) on breach, grey while paused. */
const LOOKS: Record<SlaTone, { color: string; variant: BadgeProps['variant']; Icon: typeof IconClockHour4 }> = {
  ok: { color: 'blue', variant: 'light', Icon: IconClockHour4 },
  warning: { color: 'yellow', variant: 'light', Icon: IconAlertTriangle },
  breached: { color: 'red', variant: 'filled', Icon: IconFlame },
  paused: { color: 'gray', variant: 'light', Icon: IconPlayerPause },
  met: { color: 'teal', variant: 'light', Icon: IconCircleCheck },
};

/** The countdown now, following the page's one clock: it changes (and re-renders) once a minute at most. */
export function useCountdown(sla: SlaClock, status: TicketStatus): Countdown {
  const { state, firstResponseDueAt, resolutionDueAt, firstRespondedAt } = sla;
  const derive = useCallback(
    (now: number) => JSON.stringify(countdown({ state, firstResponseDueAt, resolutionDueAt, firstRespondedAt }, now, status)),
    [state, firstResponseDueAt, resolutionDueAt, firstRespondedAt, status],
  );
  const shown = useClock(derive);
  return useMemo(() => JSON.parse(shown) as Countdown, [shown]);
}

/**
 * A ticket's service-level countdown (docs/product.md#service-levels), staff only: time left to the
 * running deadline, "Overdue …" once it passed, "Paused" while waiting on the customer, "Met" when
 * done, "Breached" on a resolved or closed ticket that missed a deadline. Screen readers hear the whole sentence ("Resolution due in 2 h 5 m"); the hover title adds the
 * deadline's date.
 */
export function SlaBadge({ sla, status, ...props }: { sla: SlaClock; status: TicketStatus } & BadgeProps) {
  const shown = useCountdown(sla, status);
  const { color, variant, Icon } = LOOKS[shown.tone];
  const title = shown.dueAt ? `${shown.description} (due ${formatDateTime(shown.dueAt)})` : shown.description;
  return (
    <Badge
      color={color}
      variant={variant}
      leftSection={<Icon size={12} aria-hidden />}
      data-testid="sla-badge"
      data-sla-state={shown.tone}
      title={title}
      style={{ flexShrink: 0 }}
      {...props}
    >
      <span aria-hidden>{shown.text}</span>
      <VisuallyHidden>{shown.description}</VisuallyHidden>
    </Badge>
  );
}
