import type { BacklogBucket, BreakdownRow, ReportInterval, ReportPoint } from '@helpdesk/protocol';
import { BarChart, LineChart, type ChartSeries } from '@mantine/charts';
import { Box, Card, Skeleton, Table, Text, Title } from '@mantine/core';
import dayjs from 'dayjs';
import { useId, type ReactNode } from 'react';
import { labelOf } from '../../lib/text';
import { durationText, REPORT_TEXT } from './texts';
import classes from './ReportCharts.module.css';

/**
 * The report's charts (docs/product.md#reports). Each has a heading and, under it, the same numbers as a
 * table that opens on demand: the text alternative for screen readers and for anyone who wants the figures.
 */

const CHART_HEIGHT = 260;
/** Beyond this many points a line's dots crowd into a bead string; the line alone reads better. */
const MAX_DOTS = 14;
const TABLE_MAX_HEIGHT = 420;
/**
 * The drawings are hidden from assistive technology, the table beside each being their text; recharts'
 * keyboard layer would make a hidden drawing focusable (axe aria-hidden-focus), so it is off.
 */
const NO_KEYBOARD_LAYER = { accessibilityLayer: false };
/** The legend in the series' order (recharts sorts it by name otherwise). */
const LEGEND = { itemSorter: null };

/** One column of a chart's table: its heading and how a row's cell reads. */
export interface Column<Row> {
  label: string;
  cell: (row: Row) => ReactNode;
}

interface ChartCardProps<Row> {
  title: string;
  /** What the chart shows, in a sentence under the heading. */
  hint?: string;
  /** Undefined while the first read runs. */
  rows: Row[] | undefined;
  failed: boolean;
  /** What an empty range says instead of empty axes. */
  empty: string;
  isEmpty: (rows: Row[]) => boolean;
  columns: Column<Row>[];
  rowKey: (row: Row) => string;
  chart: (rows: Row[]) => ReactNode;
  testId: string;
}

export function ChartCard<Row>({ title, hint, rows, failed, empty, isEmpty, columns, rowKey, chart, testId }: ChartCardProps<Row>) {
  const headingId = useId();
  let body: ReactNode;
  if (failed) body = <Text c="red.8">{REPORT_TEXT.loadFailed}</Text>;
  else if (!rows) body = <Skeleton h={CHART_HEIGHT} radius="md" />;
  else if (isEmpty(rows))
    body = (
      <Text c="dimmed" py="xl" ta="center" data-testid="chart-empty">
        {empty}
      </Text>
    );
  else
    body = (
      <>
        {/* The drawing repeats the table below, which is what assistive technology reads. */}
        <Box aria-hidden>{chart(rows)}</Box>
        <Box component="details" mt="sm">
          <Text component="summary" size="sm" c="blue.8" style={{ cursor: 'pointer' }}>
            {REPORT_TEXT.showTable}
          </Text>
          <DataTable label={title} columns={columns} rows={rows} rowKey={rowKey} />
        </Box>
      </>
    );
  return (
    <Card withBorder radius="lg" padding="lg" component="section" aria-labelledby={headingId} data-testid={testId}>
      <Title order={2} size="h4" id={headingId}>
        {title}
      </Title>
      {hint && (
        <Text c="dimmed" size="sm" mb="sm">
          {hint}
        </Text>
      )}
      {body}
    </Card>
  );
}

/** A table of figures that scrolls sideways on a narrow screen rather than squeezing its columns. */
export function DataTable<Row>({
  label,
  columns,
  rows,
  rowKey,
}: {
  label: string;
  columns: Column<Row>[];
  rows: Row[];
  rowKey: (row: Row) => string;
}) {
  return (
    // Wide tables scroll sideways on a phone and long series (92 days) down under a header that stays
    // put; the box takes focus so a keyboard can scroll it (axe scrollable-region-focusable).
    <Table.ScrollContainer
      type="native"
      minWidth={columns.length * 90}
      maxHeight={TABLE_MAX_HEIGHT}
      mt="xs"
      tabIndex={0}
      role="group"
      aria-label={`${label}, table`}
    >
      <Table striped stickyHeader aria-label={label} fz="sm">
        <Table.Thead>
          <Table.Tr>
            {columns.map((column, index) => (
              <Table.Th key={column.label} ta={index === 0 ? 'left' : 'right'} className={index === 0 ? classes.rowHeader : undefined}>
                {column.label}
              </Table.Th>
            ))}
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {rows.map((row) => (
            <Table.Tr key={rowKey(row)}>
              {columns.map((column, index) =>
                index === 0 ? (
                  <Table.Th key={column.label} scope="row" fw={500} className={classes.rowHeader}>
                    {column.cell(row)}
                  </Table.Th>
                ) : (
                  <Table.Td key={column.label} ta="right">
                    {column.cell(row)}
                  </Table.Td>
                ),
              )}
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}

/** An interval's start as the axis names it ("Nov 24", "Nov 2026") and as the table does ("Week of Nov 24, 2026"). */
export function periodLabel(start: string, interval: ReportInterval, long = false): string {
  const day = dayjs(start);
  if (interval === 'month') return day.format(long ? 'MMMM YYYY' : 'MMM YYYY');
  if (!long) return day.format('MMM D');
  return interval === 'week' ? `Week of ${day.format('MMM D, YYYY')}` : day.format('ddd, MMM D, YYYY');
}

// Colours dark enough to stand out from the white card (3:1 for graphics, WCAG 1.4.11).
const COUNT_SERIES: ChartSeries[] = [
  { name: 'created', label: 'Created', color: 'blue.7' },
  { name: 'resolved', label: 'Resolved', color: 'teal.8' },
  { name: 'reopened', label: 'Reopened', color: 'orange.8' },
];
const count = (n: number) => n.toLocaleString('en-US');
const axisCount = { allowDecimals: false };

export function CreatedResolvedChart({
  points,
  interval,
  failed,
}: {
  points: ReportPoint[] | undefined;
  interval: ReportInterval;
  failed: boolean;
}) {
  return (
    <ChartCard
      title="Created and resolved"
      hint={`Tickets created, resolved and reopened per ${interval}.`}
      testId="chart-volume"
      rows={points}
      failed={failed}
      empty={REPORT_TEXT.noTickets}
      isEmpty={(rows) => rows.every((p) => p.created === 0 && p.resolved === 0 && p.reopened === 0)}
      rowKey={(p) => p.start}
      columns={[
        { label: 'Period', cell: (p) => periodLabel(p.start, interval, true) },
        { label: 'Created', cell: (p) => count(p.created) },
        { label: 'Resolved', cell: (p) => count(p.resolved) },
        { label: 'Reopened', cell: (p) => count(p.reopened) },
      ]}
      chart={(rows) => (
        <LineChart
          h={CHART_HEIGHT}
          lineChartProps={NO_KEYBOARD_LAYER}
          data={rows.map((p) => ({ ...p, period: periodLabel(p.start, interval) }))}
          dataKey="period"
          series={COUNT_SERIES}
          curveType="linear"
          withDots={rows.length <= MAX_DOTS}
          withLegend
          legendProps={LEGEND}
          yAxisProps={axisCount}
          valueFormatter={count}
        />
      )}
    />
  );
}

/** The unit a duration axis counts in: hours, or days once the longest time reaches three days. */
export function durationUnit(seconds: (number | null)[]): { name: 'hours' | 'days'; short: 'h' | 'd'; seconds: number } {
  const longest = Math.max(0, ...seconds.map((s) => s ?? 0));
  return longest >= 3 * 86_400 ? { name: 'days', short: 'd', seconds: 86_400 } : { name: 'hours', short: 'h', seconds: 3_600 };
}

export function DurationChart({
  title,
  kind,
  points,
  interval,
  failed,
}: {
  title: string;
  kind: 'firstResponse' | 'resolution';
  points: ReportPoint[] | undefined;
  interval: ReportInterval;
  failed: boolean;
}) {
  const p50 = `${kind}P50` as const;
  const p90 = `${kind}P90` as const;
  const unit = durationUnit((points ?? []).flatMap((p) => [p[p50], p[p90]]));
  // The axis counts whole units with two decimals; the tooltip reads them back as a duration.
  const inUnit = (seconds: number | null) => (seconds === null ? null : Math.round((seconds / unit.seconds) * 100) / 100);
  return (
    <ChartCard
      title={title}
      hint={`Median and 90th percentile per ${interval}, in ${unit.name}.`}
      testId={`chart-${kind}`}
      rows={points}
      failed={failed}
      empty={REPORT_TEXT.noTimes}
      isEmpty={(rows) => rows.every((p) => p[p50] === null && p[p90] === null)}
      rowKey={(p) => p.start}
      columns={[
        { label: 'Period', cell: (p) => periodLabel(p.start, interval, true) },
        { label: 'Median', cell: (p) => durationText(p[p50]) },
        { label: '90th percentile', cell: (p) => durationText(p[p90]) },
      ]}
      chart={(rows) => (
        <LineChart
          h={CHART_HEIGHT}
          lineChartProps={NO_KEYBOARD_LAYER}
          data={rows.map((p) => ({ period: periodLabel(p.start, interval), p50: inUnit(p[p50]), p90: inUnit(p[p90]) }))}
          dataKey="period"
          series={[
            { name: 'p50', label: 'Median', color: 'blue.7' },
            { name: 'p90', label: '90th percentile', color: 'grape.7' },
          ]}
          curveType="linear"
          withDots={rows.length <= MAX_DOTS}
          connectNulls
          withLegend
          legendProps={LEGEND}
          valueFormatter={(value) => durationText(Math.round(value * unit.seconds))}
          yAxisProps={{ tickFormatter: (value: number) => `${value} ${unit.short}` }}
        />
      )}
    />
  );
}

/** The backlog's age buckets as people read them. */
const AGE_LABELS: Record<BacklogBucket['label'], string> = {
  '<1d': 'Under 1 day',
  '1-3d': '1–3 days',
  '3-7d': '3–7 days',
  '7-30d': '7–30 days',
  '>30d': 'Over 30 days',
};
const BACKLOG_SERIES: ChartSeries[] = [
  { name: 'open', label: labelOf('open'), color: 'red.8' },
  { name: 'in_progress', label: labelOf('in_progress'), color: 'orange.8' },
  { name: 'pending', label: labelOf('pending'), color: 'cyan.9' },
];

export function BacklogChart({ buckets, failed }: { buckets: BacklogBucket[] | undefined; failed: boolean }) {
  return (
    <ChartCard
      title="Backlog by age"
      hint="Tickets not yet resolved or closed, by how long ago they were created."
      testId="chart-backlog"
      rows={buckets}
      failed={failed}
      empty={REPORT_TEXT.noBacklog}
      isEmpty={(rows) => rows.every((b) => b.open + b.in_progress + b.pending === 0)}
      rowKey={(b) => b.label}
      columns={[
        { label: 'Age', cell: (b) => AGE_LABELS[b.label] },
        ...BACKLOG_SERIES.map((s) => ({ label: s.label ?? s.name, cell: (b: BacklogBucket) => count(b[s.name as 'open']) })),
        { label: 'Total', cell: (b) => count(b.open + b.in_progress + b.pending) },
      ]}
      chart={(rows) => (
        <BarChart
          h={CHART_HEIGHT}
          barChartProps={NO_KEYBOARD_LAYER}
          // The axis takes the short names ("3–7 d"), which fit under a phone's bars; the table the long ones.
          data={rows.map((b) => ({ ...b, age: b.label.replace('-', '–').replace(/d$/, ' d') }))}
          dataKey="age"
          type="stacked"
          series={BACKLOG_SERIES}
          withLegend
          legendProps={LEGEND}
          yAxisProps={axisCount}
          valueFormatter={count}
        />
      )}
    />
  );
}

const BREAKDOWN_SERIES: ChartSeries[] = [
  { name: 'created', label: 'Created', color: 'blue.7' },
  { name: 'resolved', label: 'Resolved', color: 'teal.8' },
  { name: 'backlog', label: 'Backlog now', color: 'orange.8' },
];

export function BreakdownChart({
  title,
  keyLabel,
  rows,
  failed,
  testId,
}: {
  title: string;
  /** The first column's heading: Priority, Category. */
  keyLabel: string;
  rows: BreakdownRow[] | undefined;
  failed: boolean;
  testId: string;
}) {
  return (
    <ChartCard
      title={title}
      hint="Created and resolved in the range, and the backlog now."
      testId={testId}
      rows={rows}
      failed={failed}
      empty={REPORT_TEXT.noBreakdown}
      isEmpty={(all) => all.every((r) => r.created + r.resolved + r.backlog === 0)}
      rowKey={(r) => r.key}
      columns={[
        { label: keyLabel, cell: (r) => labelOf(r.key) },
        { label: 'Created', cell: (r) => count(r.created) },
        { label: 'Resolved', cell: (r) => count(r.resolved) },
        { label: 'Backlog now', cell: (r) => count(r.backlog) },
        { label: 'First response, median', cell: (r) => durationText(r.firstResponseP50) },
        { label: 'Resolution, median', cell: (r) => durationText(r.resolutionP50) },
      ]}
      chart={(all) => (
        <BarChart
          h={CHART_HEIGHT}
          barChartProps={NO_KEYBOARD_LAYER}
          data={all.map((r) => ({ ...r, name: labelOf(r.key) }))}
          dataKey="name"
          // Bars across, names down the side: every name stays readable on a phone.
          orientation="vertical"
          series={BREAKDOWN_SERIES}
          withLegend
          legendProps={LEGEND}
          xAxisProps={axisCount}
          yAxisProps={{ width: 80 }}
          valueFormatter={count}
        />
      )}
    />
  );
}
