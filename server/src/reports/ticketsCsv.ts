import { pipeline, Readable, type Transform } from 'node:stream';
import { stringify } from 'csv-stringify';
import { csvTicketBatch, type CsvTicket, type ReportGroup } from '../db/queries/reports.js';
import type { Db } from '../db/client.js';

/** The export's columns, in order: its header row word for word (docs/api.md#reports). */
export const CSV_COLUMNS = [
  'id',
  'title',
  'status',
  'priority',
  'category',
  'requester',
  'assignee',
  'createdAt',
  'firstResponseAt',
  'resolvedAt',
  'firstResponseSeconds',
  'resolutionSeconds',
  'slaMet',
  'csatRating',
  'csatComment',
] as const;

/** Tickets read per query: the export never holds more than one batch. */
export const CSV_BATCH = 500;

const iso = (at: Date | null): string => (at === null ? '' : at.toISOString());

/** Met when every target decided was met; empty while none is decided. */
const slaMet = ({ slaResponseMet, slaResolutionMet }: CsvTicket): string =>
  slaResponseMet === null && slaResolutionMet === null ? '' : String(slaResponseMet !== false && slaResolutionMet !== false);

const cellsOf = (t: CsvTicket) => [
  t.id,
  t.title,
  t.status,
  t.priority,
  t.category,
  t.requester,
  t.assignee ?? '',
  iso(t.createdAt),
  iso(t.firstResponseAt),
  iso(t.resolvedAt),
  t.firstResponseSeconds ?? '',
  t.resolutionSeconds ?? '',
  slaMet(t),
  t.csatRating ?? '',
  t.csatComment ?? '',
];

async function* ticketRows(db: Db, group: ReportGroup, range: { lo: Date; hi: Date }, batch: number) {
  let after: { cursor: string; id: number } | null = null;
  for (;;) {
    const tickets = await csvTicketBatch(db, group, range, after, batch);
    for (const ticket of tickets) yield cellsOf(ticket);
    const last = tickets.at(-1);
    if (!last || tickets.length < batch) return;
    after = { cursor: last.cursor, id: last.id };
  }
}

/**
 * The tickets created in the range under the filters as CSV: UTF-8 with a byte order mark (so
 * spreadsheets read it as UTF-8), the header row, and a `'` before any cell a spreadsheet would run
 * as a formula (csv-stringify's escape_formulas). Read in keyset batches as the client takes them.
 */
export function ticketsCsv(
  db: Db,
  group: ReportGroup,
  range: { lo: Date; hi: Date },
  { batch = CSV_BATCH, onError = () => undefined }: { batch?: number; onError?: (error: Error) => void } = {},
): Transform {
  const csv = stringify({ bom: true, header: true, columns: [...CSV_COLUMNS], escape_formulas: true });
  // An error mid-way can only end the response early (its status is sent by then): `onError` says so.
  return pipeline(Readable.from(ticketRows(db, group, range, batch)), csv, (error) => {
    if (error) onError(error);
  });
}
