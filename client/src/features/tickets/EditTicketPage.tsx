import {
  editableTicketFields,
  editTicketForm,
  isFormStatus,
  LIMITS,
  type Priority,
  type Ticket,
  type TicketDetail,
  type TicketStatus,
  type UpdateTicketBody,
} from '@helpdesk/protocol';
import { Alert, Button, Group, Paper, SimpleGrid, Stack } from '@mantine/core';
import { useForm } from '@mantine/form';
import { IconDeviceFloppy, IconLock } from '@tabler/icons-react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useAtomValue } from 'jotai';
import { Link } from 'wouter';
import { useState } from 'react';
import { conflictTicketOf, isApiError, statusOf } from '../../api/ApiError';
import { ConflictReview } from '../../components/collaboration/ConflictReview';
import { ticketSaved } from '../../api/ticketCache';
import { ticketsApi } from '../../api/tickets';
import { ErrorAlert } from '../../components/ErrorAlert';
import { PageLoader } from '../../components/PageLoader';
import { userAtom } from '../../state/session';
import { CountedTextarea, PrioritySelect, SaveFeedback, StatusSelect, TicketTitleInput } from './fields';
import { BackLink, PageHeader } from './PageHeader';
import { TICKET_TEXT } from './texts';
import { useDelayedNavigate } from '../../lib/useDelayedNavigate';
import { useTicket } from '../../api/useTicket';
import { schemaResolver } from '../../lib/schemaResolver';

type EditValues = {
  title: string;
  description: string;
  priority: Priority;
  status: TicketStatus;
};

function EditForm({ ticket }: { ticket: TicketDetail }) {
  const ticketForm = editTicketForm(ticket.title);
  // A closed ticket keeps its status unless the owner picks one of the form's (closing is support's).
  const closedTicketForm = ticketForm.omit({ status: true });
  const client = useQueryClient();
  const redirect = useDelayedNavigate();
  const form = useForm<EditValues>({
    initialValues: { title: ticket.title, description: ticket.description, priority: ticket.priority, status: ticket.status },
    validate: (values) => schemaResolver(isFormStatus(values.status) ? ticketForm : closedTicketForm)(values),
  });

  // The version this edit is made on: a save on top of someone else's newer one is refused (409).
  const [base, setBase] = useState<Ticket>(ticket);
  const save = useMutation({
    mutationFn: ({ body, on }: { body: UpdateTicketBody; on: Ticket }) =>
      ticketsApi.update(ticket.id, { ...body, expectedVersion: on.version }),
    onSuccess: ({ ticket: saved }) => {
      void ticketSaved(client, saved);
      redirect(`/ticket/${ticket.id}`, LIMITS.redirectAfterTicketSaveMs);
    },
    onError: (error) => {
      if (isApiError(error)) form.setErrors(error.fieldErrors);
    },
  });

  const conflict = conflictTicketOf(save.error);
  const done = save.isSuccess;
  const bodyOf = (values: EditValues): UpdateTicketBody => {
    // The owner's edit sends title, description, priority and status (trimmed by the schema; docs/api.md#ticket-endpoints).
    const { title, description, priority } = closedTicketForm.parse(values);
    // Closing (withdrawing) is sent only as a change: a ticket support closed keeps its status.
    const closing = values.status === 'closed' && ticket.status !== 'closed';
    return isFormStatus(values.status) || closing
      ? { title, description, priority, status: values.status }
      : { title, description, priority };
  };
  const submit = form.onSubmit((values) => save.mutate({ body: bodyOf(values), on: base }));

  return (
    <Paper withBorder radius="md" p="lg" shadow="xs">
      <form onSubmit={submit} noValidate>
        <Stack gap="md">
          {conflict ? (
            <ConflictReview
              message={save.error?.message ?? ''}
              base={base}
              current={conflict}
              mine={bodyOf(form.values)}
              busy={save.isPending}
              onReapply={() => {
                setBase(conflict);
                save.mutate({ body: bodyOf(form.values), on: conflict });
              }}
              onDiscard={() => {
                setBase(conflict);
                form.setValues({
                  title: conflict.title,
                  description: conflict.description,
                  priority: conflict.priority,
                  status: conflict.status,
                });
                save.reset();
              }}
            />
          ) : (
            <SaveFeedback done={done} successText={TICKET_TEXT.updated} error={save.error} failureText={TICKET_TEXT.updateFailed} />
          )}
          <TicketTitleInput limits={LIMITS.ticketTitle.edit} disabled={done} {...form.getInputProps('title')} />
          <CountedTextarea
            label="Description"
            description={`At least ${LIMITS.ticketDescription.min} characters`}
            withAsterisk
            max={LIMITS.ticketDescription.max}
            disabled={done}
            {...form.getInputProps('description')}
          />
          <SimpleGrid cols={{ base: 1, sm: 2 }}>
            <PrioritySelect description="How much does this block your work?" disabled={done} {...form.getInputProps('priority')} />
            <StatusSelect
              current={ticket.status}
              description="Close it to withdraw the request"
              disabled={done}
              {...form.getInputProps('status')}
            />
          </SimpleGrid>
          <Group justify="flex-end" gap="sm">
            <Button component={Link} href={`/ticket/${ticket.id}`} variant="default">
              Cancel
            </Button>
            <Button type="submit" leftSection={<IconDeviceFloppy size={16} />} loading={save.isPending} disabled={done}>
              Save Changes
            </Button>
          </Group>
        </Stack>
      </form>
    </Paper>
  );
}

/** /edit-ticket/{id} (docs/product.md#edit-ticket): the owner edits title, description, priority and status. */
export default function EditTicketPage({ id }: { id: number }) {
  const user = useAtomValue(userAtom);
  const { ticket, isPending, error, removed } = useTicket(id);

  // Title and description are the owner's fields; staff work a ticket from the agent screens instead.
  const mayEdit = ticket !== undefined && user !== null && editableTicketFields(user, { userId: ticket.user.id }).has('title');

  let body;
  if (removed || statusOf(error) === 404 || (ticket && !mayEdit)) {
    body = (
      <Alert color="red" variant="light" icon={<IconLock />} title={TICKET_TEXT.accessDeniedTitle} role="alert">
        {TICKET_TEXT.accessDenied}
      </Alert>
    );
  } else if (ticket) {
    body = <EditForm key={ticket.id} ticket={ticket} />;
  } else if (isPending) {
    body = <PageLoader />;
  } else {
    body = <ErrorAlert message={TICKET_TEXT.loadDetailFailed} error={error} />;
  }

  return (
    <Stack gap="lg" maw={860}>
      <PageHeader
        back={<BackLink href={`/ticket/${id}`} label="Back to Ticket" />}
        title={`Edit Ticket #${id}`}
        subtitle="Update the details of your request."
      />
      {body}
    </Stack>
  );
}
