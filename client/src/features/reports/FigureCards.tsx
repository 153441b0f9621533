import type { ReportSummary } from '@helpdesk/protocol';
import { Paper, SimpleGrid, Skeleton, Text } from '@mantine/core';
import { durationText, NONE, percentText } from './texts';

type DurationFigures = ReportSummary['firstResponse'];

interface Figure {
  key: string;
  label: string;
  value: string;
  /** A line under the value: the 90th percentile, how many answers. */
  detail?: string;
}

const count = (n: number, one: string, many: string) => `${n.toLocaleString('en-US')} ${n === 1 ? one : many}`;

/** Under a median: the 90th percentile and how many tickets it was taken from. */
const spread = ({ count: n, p90 }: DurationFigures, none: string) =>
  n === 0 ? none : `90th percentile ${durationText(p90)} · ${count(n, 'ticket', 'tickets')}`;

/** The summary's figures as the cards show them (docs/product.md#reports). */
export function figuresOf(summary: ReportSummary): { volume: Figure[]; quality: Figure[] } {
  const { firstResponse, resolution, sla, csat } = summary;
  return {
    volume: [
      { key: 'created', label: 'Created', value: summary.created.toLocaleString('en-US') },
      { key: 'resolved', label: 'Resolved', value: summary.resolved.toLocaleString('en-US') },
      { key: 'reopened', label: 'Reopened', value: summary.reopened.toLocaleString('en-US') },
      { key: 'backlog', label: 'Backlog now', value: summary.backlog.toLocaleString('en-US') },
    ],
    quality: [
      {
        key: 'first-response',
        label: 'First response, median',
        value: durationText(firstResponse.p50),
        detail: spread(firstResponse, 'No first responses in this range'),
      },
      {
        key: 'resolution',
        label: 'Resolution, median',
        value: durationText(resolution.p50),
        detail: spread(resolution, 'No resolutions in this range'),
      },
      { key: 'sla-first-response', label: 'First response SLA met', value: percentText(sla.firstResponseMetPct) },
      { key: 'sla-resolution', label: 'Resolution SLA met', value: percentText(sla.resolutionMetPct) },
      {
        key: 'csat',
        label: 'CSAT score',
        value: percentText(csat.scorePct),
        detail:
          csat.responses === 0
            ? 'No survey answers in this range'
            : `${count(csat.responses, 'response', 'responses')}: ${csat.good} good, ${csat.neutral} neutral, ${csat.bad} bad`,
      },
    ],
  };
}

function FigureCard({ figure, loading }: { figure: Figure; loading: boolean }) {
  return (
    <Paper withBorder p="md" radius="md" role="group" aria-label={figure.label} data-testid={`figure-${figure.key}`}>
      <Text size="xs" c="dimmed" tt="uppercase" fw={700}>
        {figure.label}
      </Text>
      {loading ? (
        <Skeleton h={32} w={72} mt={6} />
      ) : (
        <Text fz={26} fw={700} lh={1.25} mt={4} data-testid="figure-value">
          {figure.value}
        </Text>
      )}
      {figure.detail && !loading && (
        <Text size="xs" c="dimmed" mt={4}>
          {figure.detail}
        </Text>
      )}
    </Paper>
  );
}

const EMPTY: ReportSummary = {
  created: 0,
  resolved: 0,
  reopened: 0,
  backlog: 0,
  firstResponse: { count: 0, p50: null, p90: null },
  resolution: { count: 0, p50: null, p90: null },
  sla: { firstResponseMetPct: null, resolutionMetPct: null },
  csat: { responses: 0, good: 0, neutral: 0, bad: 0, scorePct: null },
};

/** Two rows of figure cards: how many tickets, then how fast and how well; skeletons while the first read runs. */
export function FigureCards({ summary, failed }: { summary: ReportSummary | undefined; failed: boolean }) {
  const { volume, quality } = figuresOf(summary ?? EMPTY);
  const loading = !summary && !failed;
  const shown = (figures: Figure[]) => (summary ? figures : figures.map((f) => ({ ...f, value: NONE, detail: undefined })));
  return (
    <>
      <SimpleGrid cols={{ base: 2, md: 4 }} spacing="md">
        {shown(volume).map((figure) => (
          <FigureCard key={figure.key} figure={figure} loading={loading} />
        ))}
      </SimpleGrid>
      <SimpleGrid cols={{ base: 2, md: 3, lg: 5 }} spacing="md">
        {shown(quality).map((figure) => (
          <FigureCard key={figure.key} figure={figure} loading={loading} />
        ))}
      </SimpleGrid>
    </>
  );
}
