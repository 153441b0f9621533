import type { AgentReport } from '@helpdesk/protocol';
import { Card, Skeleton, Text, Title } from '@mantine/core';
import { useId } from 'react';
import { DataTable, type Column } from './ReportCharts';
import { durationText, percentText, REPORT_TEXT } from './texts';

const COLUMNS: Column<AgentReport>[] = [
  { label: 'Agent', cell: (a) => a.agent.name },
  { label: 'Assigned', cell: (a) => a.assigned.toLocaleString('en-US') },
  { label: 'Resolved', cell: (a) => a.resolved.toLocaleString('en-US') },
  { label: 'First response, median', cell: (a) => durationText(a.firstResponseP50) },
  { label: 'Resolution, median', cell: (a) => durationText(a.resolutionP50) },
  { label: 'SLA met', cell: (a) => percentText(a.slaMetPct) },
  { label: 'CSAT score', cell: (a) => percentText(a.csatScorePct) },
];

/** Each agent's figures over the range, for admins (docs/product.md#reports). */
export function AgentsTable({ agents, failed }: { agents: AgentReport[] | undefined; failed: boolean }) {
  const headingId = useId();
  return (
    <Card withBorder radius="lg" padding="lg" component="section" aria-labelledby={headingId} data-testid="agents-table">
      <Title order={2} size="h4" id={headingId}>
        Agents
      </Title>
      <Text c="dimmed" size="sm" mb="sm">
        Tickets assigned to each agent in the range, and how fast and how well they were answered.
      </Text>
      {failed ? (
        <Text c="red.8">{REPORT_TEXT.loadFailed}</Text>
      ) : !agents ? (
        <Skeleton h={120} radius="md" />
      ) : agents.length === 0 ? (
        <Text c="dimmed">{REPORT_TEXT.noAgents}</Text>
      ) : (
        <DataTable label="Agents" columns={COLUMNS} rows={agents} rowKey={(a) => String(a.agent.id)} />
      )}
    </Card>
  );
}
