import { Button, Grid, Group, Stack, Title } from '@mantine/core';
import { IconArrowLeft } from '@tabler/icons-react';
import { Link } from 'wouter';
import { statusOf } from '../../api/ApiError';
import { ErrorAlert } from '../../components/ErrorAlert';
import { PageLoader } from '../../components/PageLoader';
import { useTicket } from '../../api/useTicket';
import { useAtomValue } from 'jotai';
import { userAtom } from '../../state/session';
import { AgentUpdateForm } from './AgentUpdateForm';
import { AssigneeCard } from './AssigneeCard';
import { StatusGuidelines } from './StatusGuidelines';
import { TicketInfoPanel } from './TicketInfoPanel';

export const LOAD_DETAILS_FAILED = 'Failed to load ticket details';
export const TICKET_NOT_FOUND = 'Ticket not found';

/** /agent/ticket/{id}/update (docs/product.md#agent-update-screen): ticket info on the left, the staff update on the right. */
export default function AgentUpdatePage({ id }: { id: number }) {
  // The detail key socket events patch, so the info panel follows changes made meanwhile.
  const query = useTicket(id);
  const ticket = query.ticket;
  const user = useAtomValue(userAtom);

  return (
    <Stack gap="lg">
      <Group gap="md">
        <Button component={Link} href="/agent-dashboard" variant="subtle" leftSection={<IconArrowLeft size={16} />}>
          Back
        </Button>
        <Title order={1} size="h2">
          Update Ticket #{id}
        </Title>
      </Group>

      {query.isPending && <PageLoader label="Loading ticket..." />}
      {query.isError && !ticket && (
        <ErrorAlert message={statusOf(query.error) === 404 ? TICKET_NOT_FOUND : LOAD_DETAILS_FAILED} error={query.error} />
      )}
      {ticket && (
        <Grid gutter="lg">
          <Grid.Col span={{ base: 12, md: 6 }}>
            <TicketInfoPanel ticket={ticket} />
          </Grid.Col>
          <Grid.Col span={{ base: 12, md: 6 }}>
            <Stack gap="lg">
              <AgentUpdateForm ticket={ticket} />
              {user && <AssigneeCard ticket={ticket} me={{ id: user.id, name: user.name }} />}
              <StatusGuidelines />
            </Stack>
          </Grid.Col>
        </Grid>
      )}
    </Stack>
  );
}
