import { formatSpan } from '../../components/sla/countdown';

/** The Reports page's words (docs/product.md#reports). */
export const REPORT_TEXT = {
  title: 'Reports',
  intro: 'How the desk is doing over a range of days. Figures update as tickets change.',
  loadFailed: 'Failed to load the report',
  downloadCsv: 'Download CSV',
  downloadFailed: 'Failed to download the tickets',
  showTable: 'Show the figures as a table',
  noTickets: 'No tickets were created or resolved in this range.',
  noTimes: 'No first responses or resolutions in this range.',
  noBacklog: 'No open tickets match these filters.',
  noBreakdown: 'No tickets in this range.',
  noAgents: 'No agents to report on.',
};

/** The dash a figure shows when there was nothing to measure. */
export const NONE = '—';

/**
 * A duration in seconds as people read it, the two largest units ("45 m", "2 h 5 m", "3 d 4 h"), like
 * the SLA badges; a dash when there was nothing to measure.
 */
export const durationText = (seconds: number | null | undefined): string =>
  seconds === null || seconds === undefined ? NONE : formatSpan(seconds * 1000, 'down');

/** A percentage with its one decimal as the server rounds it ("92.5%"); a dash when there was nothing to divide. */
export const percentText = (percent: number | null | undefined): string =>
  percent === null || percent === undefined ? NONE : `${percent}%`;
