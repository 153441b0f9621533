// The charts' styles come with this page, after Mantine's own (boot.tsx), so the first load never carries them.
import '@mantine/charts/styles.css';
import { canManageUsers, isStaff, type ReportQuery, type User } from '@helpdesk/protocol';
import { Button, SimpleGrid, Stack } from '@mantine/core';
import { IconDownload } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { useAtomValue } from 'jotai';
import { useState } from 'react';
import { screenMessage } from '../../api/ApiError';
import type { ReportName } from '../../api/queryKeys';
import { downloadTicketsCsv, reportQuery } from '../../api/reports';
import { ErrorAlert } from '../../components/ErrorAlert';
import { NoPermission } from '../../components/NoPermission';
import { Refreshing } from '../../components/Refreshing';
import { notifyError } from '../../lib/notify';
import { userAtom } from '../../state/session';
import { PageHeader } from '../tickets/PageHeader';
import { AgentsTable } from './AgentsTable';
import { FigureCards } from './FigureCards';
import { BacklogChart, BreakdownChart, CreatedResolvedChart, DurationChart } from './ReportCharts';
import { ReportFilterBar } from './ReportFilterBar';
import { effectiveInterval, reportQueryOf } from './reportFilters';
import { REPORT_TEXT } from './texts';
import { useLiveReports } from './useLiveReports';
import { useReportFilters } from './useReportFilters';

/** The two breakdowns of the report, each a chart. */
const BREAKDOWNS = [
  { key: 'priority', title: 'By priority', keyLabel: 'Priority' },
  { key: 'category', title: 'By category', keyLabel: 'Category' },
] as const;

/** The query a refused range stands on: never sent, since its reads are disabled. */
const NO_QUERY: ReportQuery = {};

/** One report for the filters; read only when the range is one the server takes. */
function useReport<N extends ReportName>(name: N, query: ReportQuery | undefined, enabled = true) {
  return useQuery({ ...reportQuery(name, query ?? NO_QUERY), enabled: query !== undefined && enabled });
}

function DownloadCsv({ query }: { query: ReportQuery | undefined }) {
  const [busy, setBusy] = useState(false);
  const download = async () => {
    if (!query) return;
    setBusy(true);
    try {
      await downloadTicketsCsv(query);
    } catch (error) {
      notifyError(screenMessage(error, REPORT_TEXT.downloadFailed));
    } finally {
      setBusy(false);
    }
  };
  return (
    <Button
      leftSection={<IconDownload size={18} aria-hidden />}
      variant="light"
      loading={busy}
      disabled={!query}
      onClick={() => void download()}
    >
      {REPORT_TEXT.downloadCsv}
    </Button>
  );
}

function Reports({ user }: { user: User }) {
  const { filters, apply } = useReportFilters();
  useLiveReports();
  const admin = canManageUsers(user);
  const checked = reportQueryOf(filters);
  const query = 'query' in checked ? checked.query : undefined;
  const summary = useReport('summary', query);
  const timeseries = useReport('timeseries', query);
  const backlog = useReport('backlog', query);
  const breakdown = useReport('breakdown', query);
  const agents = useReport('agents', query, admin);
  const reads = admin ? [summary, timeseries, backlog, breakdown, agents] : [summary, timeseries, backlog, breakdown];
  const failure = reads.find((read) => read.isError)?.error;
  // The interval the points were cut by: the shown points' own, so labels match them while new ones load.
  const interval = timeseries.data?.interval ?? effectiveInterval(filters);
  const points = timeseries.data?.points;

  return (
    <Stack gap="lg">
      <PageHeader title={REPORT_TEXT.title} subtitle={REPORT_TEXT.intro} actions={admin && <DownloadCsv query={query} />} />

      <ReportFilterBar filters={filters} onChange={apply} meId={user.id} />

      {/* A range the server would refuse is said at once, with its words, and nothing is read. */}
      {'error' in checked && <ErrorAlert message={checked.error} />}
      {failure && <ErrorAlert message={screenMessage(failure, REPORT_TEXT.loadFailed)} error={failure} />}

      {query && (
        <Refreshing active={reads.some((read) => read.isFetching && read.data !== undefined)}>
          <Stack gap="lg">
            <FigureCards summary={summary.data?.summary} failed={summary.isError} />
            <SimpleGrid cols={{ base: 1, lg: 2 }} spacing="lg">
              <CreatedResolvedChart points={points} interval={interval} failed={timeseries.isError} />
              <BacklogChart buckets={backlog.data?.buckets} failed={backlog.isError} />
              <DurationChart
                title="First response time"
                kind="firstResponse"
                points={points}
                interval={interval}
                failed={timeseries.isError}
              />
              <DurationChart title="Resolution time" kind="resolution" points={points} interval={interval} failed={timeseries.isError} />
              {BREAKDOWNS.map(({ key, title, keyLabel }) => (
                <BreakdownChart
                  key={key}
                  title={title}
                  keyLabel={keyLabel}
                  testId={`chart-${key}`}
                  rows={breakdown.data?.[key]}
                  failed={breakdown.isError}
                />
              ))}
            </SimpleGrid>
            {admin && <AgentsTable agents={agents.data?.agents} failed={agents.isError} />}
          </Stack>
        </Refreshing>
      )}
    </Stack>
  );
}

/** Figures and charts of the desk over a range of days, for staff (docs/product.md#reports). */
export default function ReportsPage() {
  const user = useAtomValue(userAtom);
  if (!user || !isStaff(user)) return <NoPermission />;
  return <Reports user={user} />;
}
