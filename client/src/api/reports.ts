import type {
  ReportAgentsResponse,
  ReportBacklogResponse,
  ReportBreakdownResponse,
  ReportQuery,
  ReportSummaryResponse,
  ReportTimeseriesResponse,
} from '@helpdesk/protocol';
import { queryOptions } from '@tanstack/react-query';
import { saveBlob } from '../lib/saveBlob';
import { fetchFile, http } from './http';
import { queryKeys, type ReportName } from './queryKeys';
import { queryString, type Query } from './queryString';

/** The answer of each report (docs/api.md#reports). */
interface ReportAnswers {
  summary: ReportSummaryResponse;
  timeseries: ReportTimeseriesResponse;
  backlog: ReportBacklogResponse;
  breakdown: ReportBreakdownResponse;
  agents: ReportAgentsResponse;
}

/** Only the time series is cut into intervals: the others leave it out, so changing it reads them not again. */
const queryFor = (name: ReportName, query: ReportQuery): ReportQuery => (name === 'timeseries' ? query : { ...query, interval: undefined });

/** One report for the filters. Reports change with every ticket: kept fresh by live events, not by time. */
export const reportQuery = <N extends ReportName>(name: N, query: ReportQuery) => {
  const sent = queryFor(name, query);
  return queryOptions({
    queryKey: queryKeys.reports.report(name, sent),
    queryFn: ({ signal }) => http.get<ReportAnswers[N]>(`/reports/${name}`, { query: sent as Query, signal }),
    // The previous figures stay up while new filters are read, instead of a page of skeletons.
    placeholderData: (previous) => previous,
  });
};

/** The CSV export's API path for the filters (admins; docs/api.md#reports). */
export const ticketsCsvPath = (query: ReportQuery): string => `/reports/tickets.csv${queryString(queryFor('agents', query) as Query)}`;

/**
 * Saves the tickets of the report as a CSV file. Read with the bearer token (a plain link would
 * carry none, docs/product.md#sessions), then saved under the server's file name.
 */
export async function downloadTicketsCsv(query: ReportQuery): Promise<void> {
  const { blob, filename } = await fetchFile(ticketsCsvPath(query));
  saveBlob(blob, filename ?? 'tickets.csv');
}
