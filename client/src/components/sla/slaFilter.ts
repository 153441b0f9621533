import type { SlaFilter } from '@helpdesk/protocol';

/** The queue's SLA filter in people's words, the most pressing first (docs/product.md#service-levels). */
export const SLA_FILTER_LABELS: Record<SlaFilter, string> = {
  breached: 'Overdue',
  warning: 'Due soon',
  paused: 'Paused',
  ok: 'On track',
};

export const SLA_FILTER_OPTIONS = (Object.keys(SLA_FILTER_LABELS) as SlaFilter[]).map((value) => ({
  value,
  label: SLA_FILTER_LABELS[value],
}));
