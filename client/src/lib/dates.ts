import dayjs from 'dayjs';
import relativeTime from 'dayjs/plugin/relativeTime';

dayjs.extend(relativeTime);

export const formatDate = (iso: string): string => dayjs(iso).format('MMM D, YYYY');
export const formatDateTime = (iso: string): string => dayjs(iso).format('MMM D, YYYY h:mm A');
export const fromNow = (iso: string): string => dayjs(iso).fromNow();

const DAY_MS = 24 * 60 * 60 * 1000;

/**
 * A queue's time: within the last 24 hours relative and short ("just now", "5 min ago", "2 h ago"),
 * older ones as a date (docs/decisions.md#queue-times). The exact time goes in a hover title
 * (formatDateTime). `now` is for tests.
 */
export function formatWhen(iso: string, now: number = Date.now()): string {
  const at = dayjs(iso);
  const ago = now - at.valueOf();
  if (ago >= DAY_MS || ago < -60_000) return at.format('MMM D, YYYY');
  const minutes = Math.floor(Math.max(0, ago) / 60_000);
  if (minutes < 1) return 'just now';
  if (minutes < 60) return `${minutes} min ago`;
  return `${Math.floor(minutes / 60)} h ago`;
}
