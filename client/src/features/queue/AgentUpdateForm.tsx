import {
  agentUpdateForm,
  isStaffFormStatus,
  LIMITS,
  STAFF_FORM_STATUSES,
  type StaffFormStatus,
  type Ticket,
  type TicketDetail,
} from '@helpdesk/protocol';
import { Alert, Button, Card, Group, Select, Stack, Textarea, TextInput, Title } from '@mantine/core';
import { useForm } from '@mantine/form';
import { IconCircleCheck, IconDeviceFloppy, IconLock } from '@tabler/icons-react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useAtomValue } from 'jotai';
import { useState } from 'react';
import { conflictTicketOf } from '../../api/ApiError';
import { ticketSaved } from '../../api/ticketCache';
import { ConflictReview } from '../../components/collaboration/ConflictReview';
import { ticketsApi } from '../../api/tickets';
import { ErrorAlert } from '../../components/ErrorAlert';
import { labelledOptions } from '../../lib/text';
import { userAtom } from '../../state/session';
import { schemaResolver } from '../../lib/schemaResolver';
import { useDelayedNavigate } from '../../lib/useDelayedNavigate';

export const UPDATED = 'Ticket updated successfully!';
export const UPDATE_FAILED = 'Failed to update ticket';

const STATUS_OPTIONS = labelledOptions(STAFF_FORM_STATUSES);

type UpdateValues = { status: string; resolutionNotes: string };

/**
 * Status (closed is not offered; waiting on the customer is) and resolution notes (docs/product.md#agent-update-screen); this form sends only
 * those two fields (docs/api.md#ticket-endpoints). After saving, the agent goes back to the dashboard, as the
 * owner's edit form returns to its ticket, after the same pause.
 */
export function AgentUpdateForm({ ticket }: { ticket: TicketDetail }) {
  const user = useAtomValue(userAtom);
  const client = useQueryClient();
  const redirect = useDelayedNavigate();
  const form = useForm<UpdateValues>({
    mode: 'controlled',
    // A closed ticket starts with no status chosen: closed cannot be picked, so saving needs a real choice.
    initialValues: { status: isStaffFormStatus(ticket.status) ? ticket.status : '', resolutionNotes: ticket.resolutionNotes ?? '' },
    validate: schemaResolver(agentUpdateForm),
  });

  // The version this edit is made on: a save on top of someone else's newer one is refused (409).
  const [base, setBase] = useState<Ticket>(ticket);
  const save = useMutation({
    mutationFn: ({ values: { status, resolutionNotes }, on }: { values: UpdateValues; on: Ticket }) =>
      ticketsApi.update(ticket.id, { status: status as StaffFormStatus, resolutionNotes, expectedVersion: on.version }),
    onSuccess: ({ ticket: saved }) => {
      void ticketSaved(client, saved);
      redirect('/agent-dashboard', LIMITS.redirectAfterTicketSaveMs);
    },
  });
  const conflict = conflictTicketOf(save.error);

  const locked = save.isPending || save.isSuccess || conflict !== undefined;

  return (
    <Card withBorder padding="lg" radius="md" component="section" aria-label="Update status">
      <form onSubmit={form.onSubmit((values) => save.mutate({ values, on: base }))} noValidate>
        <Stack gap="md">
          <Title order={2} size="h4">
            Update Status
          </Title>
          {save.isSuccess && (
            <Alert color="green" variant="light" icon={<IconCircleCheck />} title={UPDATED} role="status">
              Taking you back to the dashboard...
            </Alert>
          )}
          {conflict ? (
            <ConflictReview
              message={save.error?.message ?? ''}
              base={base}
              current={conflict}
              mine={{ status: form.values.status, resolutionNotes: form.values.resolutionNotes || null }}
              busy={save.isPending}
              onReapply={() => {
                setBase(conflict);
                save.mutate({ values: form.values, on: conflict });
              }}
              onDiscard={() => {
                setBase(conflict);
                form.setValues({
                  status: isStaffFormStatus(conflict.status) ? conflict.status : '',
                  resolutionNotes: conflict.resolutionNotes ?? '',
                });
                save.reset();
              }}
            />
          ) : (
            save.isError && <ErrorAlert message={UPDATE_FAILED} error={save.error} />
          )}
          {ticket.status === 'closed' && (
            <Alert color="gray" variant="light" icon={<IconLock />} title="This ticket is closed">
              Closed is set by support and cannot be chosen here. Pick a status below only to reopen the ticket.
            </Alert>
          )}
          <Select
            label="Status"
            placeholder="Choose a status"
            data={STATUS_OPTIONS}
            allowDeselect={false}
            withAsterisk
            disabled={locked}
            {...form.getInputProps('status')}
          />
          <Textarea
            label="Resolution Notes"
            description="Optional. What was found or done; the user sees these notes on their ticket."
            placeholder="Describe the resolution or the next steps..."
            autosize
            minRows={5}
            maxRows={12}
            maxLength={LIMITS.resolutionNotes.max}
            disabled={locked}
            {...form.getInputProps('resolutionNotes')}
          />
          <TextInput label="Updated by" value={user?.name ?? ''} readOnly variant="filled" description="Recorded with this change" />
          <Group justify="flex-end">
            <Button type="submit" leftSection={<IconDeviceFloppy size={16} />} loading={save.isPending} disabled={save.isSuccess}>
              Update Ticket
            </Button>
          </Group>
        </Stack>
      </form>
    </Card>
  );
}
