import type { Priority } from '@helpdesk/protocol';

/** Texts of the service levels screen (docs/product.md#service-levels). */
export const SLA_TEXT = {
  title: 'Service Levels',
  intro: 'Opening hours the deadlines count in, and the response and resolution targets each priority gets.',
  calendars: 'Business calendars',
  calendarsHint: 'Deadlines only count the hours a calendar is open. A policy without a calendar counts around the clock.',
  policies: 'SLA policies',
  policiesHint:
    'A ticket gets the first active policy, from the top, that names its requester’s email domain, else the first one without domains.',
  addCalendar: 'Add Calendar',
  addPolicy: 'Add Policy',
  noCalendars: 'No business calendars yet',
  noPolicies: 'No SLA policies yet',
  calendarSaved: 'Calendar saved',
  policySaved: 'Policy saved',
  orderSaved: 'Policy order saved',
  loadFailed: 'Failed to load service levels',
  saveFailed: 'Could not save',
  deleteFailed: 'Could not delete',
  confirmCalendar: 'Are you sure you want to delete this calendar?',
  confirmPolicy: 'Are you sure you want to delete this policy?',
  aroundTheClock: 'Around the clock',
  everyone: 'Everyone',
  noTarget: 'none',
  inactive: 'Inactive',
} as const;

/** Monday first, as most calendars show a week; `day` is the API's 0 = Sunday. */
export const WEEK = [
  { day: 1, name: 'Monday' },
  { day: 2, name: 'Tuesday' },
  { day: 3, name: 'Wednesday' },
  { day: 4, name: 'Thursday' },
  { day: 5, name: 'Friday' },
  { day: 6, name: 'Saturday' },
  { day: 0, name: 'Sunday' },
] as const;

export const PRIORITY_LABELS: Record<Priority, string> = { urgent: 'Urgent', high: 'High', medium: 'Medium', low: 'Low' };

/** "90" → "1 h 30 min", for a target read at a glance. */
export function durationText(minutes: number | null): string {
  if (minutes === null) return SLA_TEXT.noTarget;
  const days = Math.floor(minutes / 1440);
  const hours = Math.floor((minutes % 1440) / 60);
  const rest = minutes % 60;
  return [days && `${days} d`, hours && `${hours} h`, rest && `${rest} min`].filter(Boolean).join(' ');
}
