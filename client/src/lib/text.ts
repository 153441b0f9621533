import { LIMITS, STATUS_LABELS } from '@helpdesk/protocol';

/** Cuts at `length` characters and marks the cut with an ellipsis (excerpts, docs/product.md#limits). */
export function truncate(text: string, length: number = LIMITS.excerpt.truncate): string {
  const clean = text.trim();
  return clean.length > length ? `${clean.slice(0, length).trimEnd()}...` : clean;
}

/** A list's total; a search's count stopped at its cap reads "10,000+". */
export const formatTotal = (total: number, capped = false): string => (capped ? `${total.toLocaleString('en-US')}+` : String(total));

/** Select options for enum values, each labelled as people read it. */
export const labelledOptions = <T extends string>(values: readonly T[]) => values.map((value) => ({ value, label: labelOf(value) }));

/** Human words for enum values: `in_progress` → `In Progress`. */
export function labelOf(value: string): string {
  // Statuses have names of their own (`pending` reads "Waiting on customer").
  if (Object.hasOwn(STATUS_LABELS, value)) return STATUS_LABELS[value as keyof typeof STATUS_LABELS];
  return value
    .split(/[_-]/)
    .map((word) => word.charAt(0).toUpperCase() + word.slice(1))
    .join(' ');
}
