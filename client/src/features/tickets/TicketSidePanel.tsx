import { PRIORITIES, TICKET_STATUSES, type Category, type Priority, type Ticket, type TicketStatus, type User } from '@helpdesk/protocol';
import { Card, Select, Stack, TagsInput, Text, Title, type SelectProps } from '@mantine/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useRef, useState } from 'react';
import { conflictTicketOf } from '../../api/ApiError';
import { deskApi, type DeskTicket } from '../../api/desk';
import { ticketSaved } from '../../api/ticketCache';
import { ticketsApi } from '../../api/tickets';
import { staffDirectoryQuery } from '../../api/users';
import { tagsChanged, useTagSuggestions } from '../../api/tagSuggestions';
import { CATEGORY_OPTIONS } from '../../components/CategoryChip';
import { ConflictReview } from '../../components/collaboration/ConflictReview';
import { ErrorAlert } from '../../components/ErrorAlert';
import { labelledOptions } from '../../lib/text';
import { MergeControl } from './MergeControl';
import { SlaDetails } from '../../components/sla/SlaDetails';

export const PANEL_TEXT = {
  title: 'Ticket details',
  saveFailed: 'Failed to update ticket',
} as const;

const STATUS_OPTIONS = labelledOptions(TICKET_STATUSES);
const PRIORITY_OPTIONS = labelledOptions(PRIORITIES);
const UNASSIGNED = 'none';
/** The enum fields, each in a box of its own options (status: every one, closed too). */
const CHOICES = [
  { field: 'status', label: 'Status', data: STATUS_OPTIONS },
  { field: 'priority', label: 'Priority', data: PRIORITY_OPTIONS },
  { field: 'category', label: 'Category', data: CATEGORY_OPTIONS },
] as const;

/** One field's change as the panel sends it; tags go on their own call until the protocol's update body has them. */
type Change =
  | { field: 'status'; value: TicketStatus }
  | { field: 'priority'; value: Priority }
  | { field: 'category'; value: Category }
  | { field: 'assignedAgentId'; value: number | null }
  | { field: 'tags'; value: string[] };

const send = (id: number, change: Change, version: number) =>
  change.field === 'tags'
    ? deskApi.setTags(id, change.value, version)
    : ticketsApi.update(id, { [change.field]: change.value, expectedVersion: version });

/** What the conflict review lists as this person's change. */
const mineOf = (change: Change): Record<string, unknown> =>
  change.field === 'assignedAgentId' ? { assignedAgent: change.value } : { [change.field]: change.value };

/** One of the ticket's enum fields: saved as soon as another value is chosen, never cleared. */
function ChoiceSelect({
  value,
  onPick,
  ...props
}: Pick<SelectProps, 'label' | 'data' | 'readOnly'> & { value: string; onPick: (value: string) => void }) {
  return <Select value={value} allowDeselect={false} onChange={(next) => next && next !== value && onPick(next)} {...props} />;
}

/**
 * The staff side panel of a ticket page (docs/product.md#ticket-page): status (every status),
 * priority, category, assignee and tags, each saved in place as soon as it is chosen, on the version shown
 * (a change made meanwhile by someone else answers 409 and is reviewed here). The page stays on the ticket.
 */
export function TicketSidePanel({ ticket, me }: { ticket: DeskTicket; me: Pick<User, 'id' | 'name'> }) {
  const client = useQueryClient();
  const staff = useQuery(staffDirectoryQuery).data?.staff ?? [];
  const hasTags = Array.isArray(ticket.tags);
  const suggestions = useTagSuggestions(hasTags);
  // The ticket the change was made on, for the conflict review's "what they changed".
  const [base, setBase] = useState<Ticket>(ticket);
  // Tags typed while a save is on its way: shown at once, sent on the saved version once it is back.
  const [tagsDraft, setTagsDraft] = useState<string[] | null>(null);
  const queuedTags = useRef<string[] | null>(null);
  const save = useMutation({
    mutationFn: ({ change, on }: { change: Change; on: Ticket }) => send(ticket.id, change, on.version),
    onSuccess: ({ ticket: saved }, { change }) => {
      void ticketSaved(client, saved);
      if (change.field === 'tags') void tagsChanged(client);
      const queued = queuedTags.current;
      queuedTags.current = null;
      if (queued) {
        setBase(saved);
        save.mutate({ change: { field: 'tags', value: queued }, on: saved });
      } else setTagsDraft(null);
    },
    onError: () => {
      queuedTags.current = null;
      setTagsDraft(null);
    },
  });
  const conflict = conflictTicketOf(save.error);
  const change = (next: Change) => {
    setBase(ticket);
    save.mutate({ change: next, on: ticket });
  };
  const changeTags = (tags: string[]) => {
    const value = tags.map((tag) => tag.trim().toLowerCase());
    setTagsDraft(value);
    if (save.isPending) queuedTags.current = value;
    else change({ field: 'tags', value });
  };

  const current = ticket.assignedAgent?.id ?? null;
  const assignees = [
    { value: UNASSIGNED, label: 'Unassigned' },
    ...staff.map((person) => ({ value: String(person.id), label: person.id === me.id ? `${person.name} (me)` : person.name })),
    ...(current !== null && !staff.some((p) => p.id === current)
      ? [{ value: String(current), label: ticket.assignedAgent?.name ?? '' }]
      : []),
  ];
  // While a change saves, the boxes are read-only rather than disabled: a disabled box drops the
  // focus to <body>, where the next key typed runs a page shortcut (j, k, r) instead.
  const busy = save.isPending;

  return (
    <Card withBorder radius="md" padding="lg" component="section" aria-label={PANEL_TEXT.title}>
      <Stack gap="sm">
        <Title order={2} size="h4">
          {PANEL_TEXT.title}
        </Title>
        {conflict && save.variables ? (
          <ConflictReview
            message={save.error?.message ?? ''}
            base={base}
            current={conflict}
            mine={mineOf(save.variables.change)}
            busy={busy}
            onReapply={() => {
              setBase(conflict);
              save.mutate({ change: save.variables.change, on: conflict });
            }}
            onDiscard={() => {
              void ticketSaved(client, conflict);
              save.reset();
            }}
          />
        ) : (
          save.isError && <ErrorAlert message={PANEL_TEXT.saveFailed} error={save.error} />
        )}
        {ticket.sla !== undefined && <SlaDetails sla={ticket.sla} status={ticket.status} />}
        {CHOICES.map(({ field, label, data }) => (
          <ChoiceSelect
            key={field}
            label={label}
            data={data}
            value={ticket[field]}
            readOnly={busy}
            // The value is one of the box's own options.
            onPick={(value) => change({ field, value } as Change)}
          />
        ))}
        <Select
          label="Assignee"
          data={assignees}
          value={current === null ? UNASSIGNED : String(current)}
          allowDeselect={false}
          searchable
          readOnly={busy}
          onChange={(value) => {
            const agentId = !value || value === UNASSIGNED ? null : Number(value);
            if (agentId !== current) change({ field: 'assignedAgentId', value: agentId });
          }}
        />
        {hasTags && (
          <TagsInput
            label="Tags"
            description="Only support staff see tags."
            data={suggestions}
            value={tagsDraft ?? ticket.tags ?? []}
            placeholder={(tagsDraft ?? ticket.tags ?? []).length === 0 ? 'Add a tag' : undefined}
            clearable
            onChange={changeTags}
          />
        )}
        {ticket.status !== 'closed' && <MergeControl ticketId={ticket.id} />}
        {ticket.updatedBy && (
          <Text size="xs" c="dimmed">
            Last changed by {ticket.updatedBy.name}
          </Text>
        )}
      </Stack>
    </Card>
  );
}
