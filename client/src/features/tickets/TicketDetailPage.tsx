import {
  canCommentOnTicket,
  canDeleteTicket,
  editableTicketFields,
  isStaff,
  type OwnedTicket,
  type TicketDetail,
  type User,
} from '@helpdesk/protocol';
import { Button, Card, Grid, Group, Stack, Text, Title } from '@mantine/core';
import { confirmDelete } from '../../lib/confirmDelete';
import { IconRefresh } from '@tabler/icons-react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useAtomValue } from 'jotai';
import type { ReactNode } from 'react';
import { Link, useLocation } from 'wouter';
import { EditDeleteButtons } from '../../components/EditDeleteButtons';
import { statusOf } from '../../api/ApiError';
import { ticketDeleted } from '../../api/ticketCache';
import { ticketsApi } from '../../api/tickets';
import { EmptyState } from '../../components/EmptyState';
import { ErrorAlert } from '../../components/ErrorAlert';
import { PageLoader } from '../../components/PageLoader';
import { CategoryChip } from '../../components/CategoryChip';
import { PriorityChip, StatusChip } from '../../components/TicketChips';
import { SlaBadge } from '../../components/sla/SlaBadge';
import { homePath } from '../../state/home';
import { userAtom } from '../../state/session';
import { StaffComposer } from '../../components/collaboration/StaffComposer';
import { TicketViewers } from '../../components/collaboration/TicketViewers';
import { useAnnouncePresence } from '../../components/collaboration/usePresence';
import { saveFailureMessage } from './failures';
import { BackLink } from './PageHeader';
import { TicketComments } from './TicketComments';
import { TicketInfo } from './TicketInfo';
import { RequesterPanel } from './RequesterPanel';
import { threadCount } from './thread';
import { TicketSidePanel } from './TicketSidePanel';
import { OwnerCsatSection } from './OwnerCsatSection';
import { StaffCsatSection } from './StaffCsatSection';
import { useTicketNotificationsRead } from '../../components/collaboration/useTicketNotificationsRead';
import { TICKET_TEXT } from './texts';
import { useTicket } from '../../api/useTicket';
import { TicketShortcuts } from './TicketShortcuts';
import { AttachmentList } from '../../components/attachments/AttachmentList';
import { OriginalEmailLink } from './OriginalEmailLink';

function Section({ title, children, bg, overflow }: { title: string; children: ReactNode; bg?: string; overflow?: 'visible' }) {
  return (
    <Card withBorder radius="md" padding="lg" component="section" aria-label={title} bg={bg} style={overflow && { overflow }}>
      <Title order={2} size="h4" mb="sm">
        {title}
      </Title>
      {children}
    </Card>
  );
}

function useDeleteTicket(id: number, home: string) {
  const client = useQueryClient();
  const [, navigate] = useLocation();
  return useMutation({
    mutationFn: () => ticketsApi.remove(id),
    onSuccess: () => {
      navigate(home);
      void ticketDeleted(client, id);
    },
  });
}

const owned = (ticket: TicketDetail): OwnedTicket => ({ userId: ticket.user.id });

/**
 * Staff work tickets from the agent screens (Update Status). Edit and Delete show only to non-agents
 * (docs/product.md#permissions): the owner, and an admin, who may delete any ticket and edit their own.
 */
function TicketActions({ ticket, user }: { ticket: TicketDetail; user: User }) {
  const remove = useDeleteTicket(ticket.id, homePath(user.role));
  const agent = user.role === 'agent';
  const editable = !agent && editableTicketFields(user, owned(ticket)).has('title');
  // Once support has answered, the owner can no longer delete (they may still edit); an admin always may.
  const askToDelete =
    !agent && canDeleteTicket(user, { ...owned(ticket), answered: ticket.answered })
      ? () => confirmDelete({ title: 'Delete ticket', question: TICKET_TEXT.deleteConfirm, onConfirm: () => remove.mutate() })
      : undefined;
  if (!isStaff(user) && !editable) return null;
  return (
    <Stack gap="xs" align="flex-end">
      <Group gap="sm">
        {isStaff(user) && (
          <Button component={Link} href={`/agent/ticket/${ticket.id}/update`} leftSection={<IconRefresh size={16} />}>
            Update Status
          </Button>
        )}
        {(editable || askToDelete) && (
          <EditDeleteButtons
            editHref={editable ? `/edit-ticket/${ticket.id}` : undefined}
            onDelete={askToDelete}
            deleting={remove.isPending}
          />
        )}
      </Group>
      {remove.isError && <ErrorAlert message={saveFailureMessage(remove.error, TICKET_TEXT.deleteFailed)} error={remove.error} />}
    </Stack>
  );
}

function TicketView({ ticket, user }: { ticket: TicketDetail; user: User }) {
  const canComment = canCommentOnTicket(user, owned(ticket));
  const staff = isStaff(user);
  useAnnouncePresence(ticket.id, staff);
  useTicketNotificationsRead(ticket.id, staff);
  // The owner replying to a resolved ticket reopens it (docs/product.md#ticket-lifecycle).
  const notice =
    !staff && ticket.status === 'resolved' ? (
      <Text size="sm" c="dimmed" mb="xs" data-testid="reopen-notice">
        {TICKET_TEXT.reopenOnReply}
      </Text>
    ) : undefined;
  return (
    <Stack gap="lg">
      <Group justify="space-between" align="flex-start" gap="md">
        <Stack gap={6} style={{ flex: '1 1 360px', minWidth: 0 }}>
          <Title order={1} size="h2" style={{ overflowWrap: 'anywhere' }}>
            <Text span inherit c="dimmed">
              #{ticket.id}
            </Text>{' '}
            {ticket.title}
          </Title>
          <Group gap="xs">
            <StatusChip status={ticket.status} size="lg" />
            <PriorityChip priority={ticket.priority} size="lg" />
            <CategoryChip category={ticket.category} size="lg" />
            {/* Also here, not only in the side panel, which a phone shows below the conversation. */}
            {staff && ticket.sla && <SlaBadge sla={ticket.sla} status={ticket.status} size="lg" />}
            {staff && <TicketViewers ticketId={ticket.id} size="md" />}
          </Group>
        </Stack>
        <TicketActions ticket={ticket} user={user} />
      </Group>
      {staff && <TicketShortcuts ticketId={ticket.id} />}

      <Grid gutter="lg">
        <Grid.Col span={{ base: 12, md: 8 }}>
          <Stack gap="lg">
            <Section title="Description">
              <Text style={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}>{ticket.description}</Text>
              <AttachmentList files={ticket.attachments} />
              {ticket.inboundMessageId !== undefined && <OriginalEmailLink id={ticket.inboundMessageId} />}
            </Section>
            {/* The current state only while resolved or closed; once reopened they are history in the thread. */}
            {ticket.resolutionNotes && (ticket.status === 'resolved' || ticket.status === 'closed') && (
              <Section title="Resolution Notes" bg="var(--mantine-color-green-light)">
                <Text style={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}>{ticket.resolutionNotes}</Text>
              </Section>
            )}
            {!staff && ticket.status === 'resolved' && ticket.user.id === user.id && <OwnerCsatSection ticketId={ticket.id} />}
            {/* Visible overflow: the pinned reply box sticks to the screen, not to a clipped card. */}
            <Section title={TICKET_TEXT.comments(threadCount(ticket, staff))} overflow="visible">
              <TicketComments
                ticket={ticket}
                canComment={canComment}
                notice={notice}
                composer={staff ? <StaffComposer ticket={ticket} /> : undefined}
              />
            </Section>
          </Stack>
        </Grid.Col>
        <Grid.Col span={{ base: 12, md: 4 }}>
          <Stack gap="lg">
            {staff && ticket.csat && <StaffCsatSection csat={ticket.csat} />}
            {staff && <TicketSidePanel ticket={ticket} me={user} />}
            {staff && <RequesterPanel requester={ticket.user} ticketId={ticket.id} />}
            <Section title="Ticket Information">
              <TicketInfo ticket={ticket} />
            </Section>
          </Stack>
        </Grid.Col>
      </Grid>
    </Stack>
  );
}

/** /ticket/{id} (docs/product.md#ticket-page); live through the detail query that socket events patch. */
export default function TicketDetailPage({ id }: { id: number }) {
  const user = useAtomValue(userAtom);
  const { ticket, isPending, error, removed } = useTicket(id);
  const home = user ? homePath(user.role) : '/dashboard';

  let body;
  if (removed || statusOf(error) === 404) {
    body = (
      <Card withBorder radius="md" padding="xl">
        <EmptyState
          heading="h1"
          title={TICKET_TEXT.notFound}
          description="It may have been deleted, or the link is wrong."
          action={
            <Button component={Link} href={home} mt="sm">
              Back to Dashboard
            </Button>
          }
        />
      </Card>
    );
  } else if (ticket && user) {
    body = <TicketView ticket={ticket} user={user} />;
  } else if (isPending) {
    body = <PageLoader />;
  } else {
    body = <ErrorAlert message={TICKET_TEXT.loadDetailFailed} error={error} />;
  }

  return (
    <Stack gap="md">
      <div>
        <BackLink href={home} label="Back to Dashboard" />
      </div>
      {body}
    </Stack>
  );
}
