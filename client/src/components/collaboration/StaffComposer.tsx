import { LIMITS, type Ticket, type TicketDetail, type TicketStatus, type UserRef } from '@helpdesk/protocol';
import { ActionIcon, Button, Group, Menu, Modal, Stack } from '@mantine/core';
import { IconChevronUp, IconCircleCheck, IconHourglass, IconMessage, IconPlayerPlay, IconSend } from '@tabler/icons-react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useAtomValue } from 'jotai';
import { useRef, useState, type ReactNode } from 'react';
import { conflictTicketOf, screenMessage } from '../../api/ApiError';
import { queryKeys } from '../../api/queryKeys';
import { commentSaved, ticketSaved } from '../../api/ticketCache';
import { ticketsApi } from '../../api/tickets';
import { usersApi } from '../../api/users';
import { ErrorAlert } from '../ErrorAlert';
import { userAtom } from '../../state/session';
import { loadCommentChecks } from './loadCommentChecks';
import { COMMENT_TEXT } from './texts';
import { baselineOf, collisionSince, type Collision } from './collision';
import { COLLISION_TEXT, CollisionNotice } from './CollisionNotice';
import { ConflictReview } from './ConflictReview';
import { MentionTextarea } from './MentionTextarea';
import { mentionedIds } from './mentions';
import { NoteBadge } from './NoteBadge';
import { ReplyModeSwitch } from './ReplyModeSwitch';
import { useDraft } from './useDraft';
import { TypingIndicator } from './TypingIndicator';
import { useTypingSignal } from './usePresence';
import { CannedResponsePicker } from './CannedResponsePicker';
import { AttachButton, DraftFiles, DropHint, useFileDrop } from '../attachments/AttachmentPicker';
import { ATTACHMENT_TEXT } from '../attachments/texts';
import { useAttachmentDraft } from '../attachments/useAttachmentDraft';
import { usePhone } from '../../lib/useScreenUnder';

interface Send {
  content: string;
  internal: boolean;
  mentions: number[];
  status?: TicketStatus;
  /** With a status: the version the agent saw, so a change made meanwhile is refused (409), not overwritten. */
  expectedVersion?: number;
  attachmentIds?: number[];
}

export const COMPOSER_TEXT = {
  noteHint: 'Only support staff see internal notes. Type @ to mention someone.',
  moreSends: 'Send and change status',
} as const;

/**
 * A reply that also moves the ticket on, each offered unless the ticket is there already. Waiting on the
 * customer stops the SLA clock until they answer (their reply reopens the ticket).
 */
const STATUS_SENDS: { status: TicketStatus; label: string; icon: ReactNode }[] = [
  { status: 'in_progress', label: 'Send and mark In Progress', icon: <IconPlayerPlay size={16} /> },
  { status: 'pending', label: 'Send and wait on customer', icon: <IconHourglass size={16} color="var(--mantine-color-cyan-8)" /> },
  // Default look with a green mark: light green text on its tint falls below 4.5:1.
  { status: 'resolved', label: 'Send and resolve', icon: <IconCircleCheck size={16} color="var(--mantine-color-green-8)" /> },
];

/** The staff list for mentions, shared by every composer on screen. */
export function useStaffDirectory(enabled = true) {
  return useQuery({
    queryKey: queryKeys.users.staffDirectory,
    queryFn: ({ signal }) => usersApi.staffDirectory(signal),
    enabled,
    staleTime: 5 * 60_000,
  }).data?.staff;
}

/**
 * The staff reply box (docs/product.md#working-a-ticket-together): Reply or Internal note, and one of Send, Send
 * and mark In Progress, Send and resolve, each a single request. Before sending, it compares the live
 * ticket with the one the agent started from and warns when someone else replied or changed it.
 */
export function StaffComposer({ ticket }: { ticket: TicketDetail }) {
  const client = useQueryClient();
  const me = useAtomValue(userAtom);
  // Kept in the browser per person and ticket until sent (useDraft.ts).
  const { content, setContent, mode, setMode } = useDraft(ticket.id);
  const [error, setError] = useState<string | null>(null);
  const [picked, setPicked] = useState<UserRef[]>([]);
  const [collision, setCollision] = useState<{ found: Collision; send: Send } | null>(null);
  // The ticket as shown when the last request went: a 409 is reviewed against it.
  const [sentOn, setSentOn] = useState<Ticket>(ticket);
  const baseline = useRef(baselineOf(ticket));
  const note = mode === 'note';
  // Only notes mention, so the list is fetched once a note is started.
  const staff = useStaffDirectory(note);
  const typing = useTypingSignal(ticket.id);
  const draft = useAttachmentDraft();
  const { dropProps, dragging } = useFileDrop(draft);
  const phone = usePhone();
  // A note never asks the customer anything, so it cannot wait on them.
  const statusSends = STATUS_SENDS.filter((send) => send.status !== ticket.status && !(note && send.status === 'pending'));

  const send = useMutation({
    mutationFn: ({ content: text, ...extra }: Send) => ticketsApi.comment(ticket.id, text, extra),
    onSuccess: async ({ comment, ticket: changed }) => {
      if (changed) void ticketSaved(client, changed);
      await commentSaved(client, ticket.id, comment);
      setContent('');
      draft.clear();
      setPicked([]);
      setCollision(null);
    },
  });
  // A status sent on a version someone else has since changed (docs/product.md#working-a-ticket-together).
  const conflict = conflictTicketOf(send.error);
  const lastSent = send.variables;

  /** After a send, or once the agent has reviewed, the live ticket is the new starting point. */
  const rebase = () => {
    baseline.current = baselineOf(ticket);
  };

  const post = (request: Send) => {
    setSentOn(ticket);
    send.mutate(request, { onSuccess: rebase });
  };

  const submit = async (status?: TicketStatus) => {
    const checked = (await loadCommentChecks()).checkComment(content);
    if ('error' in checked) {
      setError(checked.error ?? COMMENT_TEXT.commentFailed);
      return;
    }
    // A send waits for the files still going up rather than leaving them behind.
    if (draft.uploading) {
      setError(ATTACHMENT_TEXT.waitForUploads);
      return;
    }
    setError(null);
    typing.stopped();
    const request: Send = {
      content: checked.content,
      internal: note,
      mentions: note ? mentionedIds(checked.content, picked) : [],
      ...(status && { status, expectedVersion: ticket.version }),
      ...(draft.ids.length > 0 && { attachmentIds: draft.ids }),
    };
    const found = me ? collisionSince(baseline.current, ticket, me.id) : undefined;
    if (found) {
      setCollision({ found, send: request });
      return;
    }
    post(request);
  };

  const tools = (
    <>
      <AttachButton draft={draft} compact={phone} />
      <CannedResponsePicker
        ticketId={ticket.id}
        ticket={ticket}
        compact={phone}
        onInsert={(text) => setContent((current) => current + text)}
      />
    </>
  );
  const sendButton = (
    <Button leftSection={note ? <IconMessage size={16} /> : <IconSend size={16} />} onClick={() => void submit()} loading={send.isPending}>
      {note ? 'Add note' : 'Send'}
    </Button>
  );

  return (
    <Stack gap="sm" {...dropProps}>
      <Group justify="space-between" gap="xs">
        <ReplyModeSwitch value={mode} onChange={setMode} />
        {note && <NoteBadge label="Staff only" />}
      </Group>
      {conflict && lastSent ? (
        <ConflictReview
          message={send.error?.message ?? ''}
          base={sentOn}
          current={conflict}
          mine={{ status: lastSent.status }}
          busy={send.isPending}
          // The reply stays in the box either way; re-applying sends it with the status on the new version.
          onReapply={() => post({ ...lastSent, expectedVersion: conflict.version })}
          onDiscard={() => {
            rebase();
            send.reset();
          }}
        />
      ) : (
        send.isError && <ErrorAlert message={screenMessage(send.error, COMMENT_TEXT.commentFailed)} error={send.error} />
      )}
      <MentionTextarea
        // The comment rules (zod) load once a reply is started, not with the ticket.
        onFocus={() => void loadCommentChecks()}
        label={note ? 'Internal note' : 'Reply to the customer'}
        description={note ? COMPOSER_TEXT.noteHint : undefined}
        placeholder={note ? 'Write a note for the team...' : 'Write a reply...'}
        autosize
        minRows={phone ? 2 : 3}
        maxRows={10}
        maxLength={LIMITS.comment.max}
        value={content}
        onChange={(value) => {
          setContent(value);
          if (value.trim()) typing.typed();
          else typing.stopped();
        }}
        onBlur={typing.stopped}
        staff={note ? (staff ?? []).filter((s) => s.id !== me?.id) : []}
        onMention={(person) => setPicked((list) => [...list, person])}
        error={error}
        styles={note ? { input: { background: 'var(--mantine-color-yellow-0)', borderColor: 'var(--mantine-color-yellow-5)' } } : undefined}
        data-testid="composer"
        // The `r` shortcut focuses the reply box (features/tickets/TicketShortcuts.tsx).
        data-reply-box
      />
      <DropHint visible={dragging} />
      <DraftFiles draft={draft} />
      {phone ? (
        // A phone's pinned box keeps to one row of controls: the status sends fold into a menu beside
        // Send, the tools are icons (as buttons they took four rows, half the screen).
        <>
          <TypingIndicator ticketId={ticket.id} />
          <Group justify="space-between" gap="xs" wrap="nowrap">
            <Group gap="xs" wrap="nowrap">
              {tools}
            </Group>
            <Group gap={4} wrap="nowrap">
              {sendButton}
              {statusSends.length > 0 && (
                <Menu position="top-end" withinPortal>
                  <Menu.Target>
                    <ActionIcon variant="default" size="lg" aria-label={COMPOSER_TEXT.moreSends} disabled={send.isPending}>
                      <IconChevronUp size={18} />
                    </ActionIcon>
                  </Menu.Target>
                  <Menu.Dropdown>
                    {statusSends.map(({ status, label, icon }) => (
                      <Menu.Item key={status} leftSection={icon} onClick={() => void submit(status)}>
                        {label}
                      </Menu.Item>
                    ))}
                  </Menu.Dropdown>
                </Menu>
              )}
            </Group>
          </Group>
        </>
      ) : (
        <>
          <Group gap="xs" align="flex-start">
            {tools}
          </Group>
          <TypingIndicator ticketId={ticket.id} />
          <Group justify="flex-end" gap="xs">
            {statusSends.map(({ status, label, icon }) => (
              <Button key={status} variant="default" leftSection={icon} onClick={() => void submit(status)} disabled={send.isPending}>
                {label}
              </Button>
            ))}
            {sendButton}
          </Group>
        </>
      )}

      <Modal opened={collision !== null} onClose={() => setCollision(null)} title={COLLISION_TEXT.title} centered size="lg">
        {collision && (
          <CollisionNotice
            found={collision.found}
            sending={send.isPending}
            onReview={() => {
              rebase();
              setCollision(null);
            }}
            onSendAnyway={() => post(collision.send)}
          />
        )}
      </Modal>
    </Stack>
  );
}
