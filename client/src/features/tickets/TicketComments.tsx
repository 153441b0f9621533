import { LIMITS, type Comment, type HistoryEntry, type Role, type TicketDetail } from '@helpdesk/protocol';
import { Avatar, Badge, Button, Group, Paper, Stack, Text, Textarea, ThemeIcon } from '@mantine/core';
import { useForm } from '@mantine/form';
import { IconMessagePlus } from '@tabler/icons-react';
import { useState, type ReactNode } from 'react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { screenMessage } from '../../api/ApiError';
import { deskApi } from '../../api/desk';
import { commentSaved, olderCommentsLoaded, olderHistoryLoaded } from '../../api/ticketCache';
import { ticketsApi } from '../../api/tickets';
import { ErrorAlert } from '../../components/ErrorAlert';
import { formatDateTime, fromNow } from '../../lib/dates';
import { labelOf } from '../../lib/text';
import { initialsOf } from '../../components/collaboration/initials';
import { NoteBadge } from '../../components/collaboration/NoteBadge';
import { EmailStatusBadge } from '../../components/collaboration/EmailStatusBadge';
import { TICKET_TEXT } from './texts';
import { useLazyValidation } from '../../lib/useLazyValidation';
import { loadCommentChecks } from '../../components/collaboration/loadCommentChecks';
import { COMMENT_TEXT } from '../../components/collaboration/texts';
import { CannedResponsePicker } from '../../components/collaboration/CannedResponsePicker';
import { AttachmentList } from '../../components/attachments/AttachmentList';
import { AttachButton, DraftFiles, DropHint, useFileDrop } from '../../components/attachments/AttachmentPicker';
import { ATTACHMENT_TEXT } from '../../components/attachments/texts';
import { useAttachmentDraft } from '../../components/attachments/useAttachmentDraft';
import { useDraft } from '../../components/collaboration/useDraft';
import { hasOlderThread, threadItems } from './thread';
import { describeHistory } from './timeline';
import { HistoryIcon } from './historyIcons';
import { historyTextWithLinks, withMergeLink } from './MergeLinks';
import { OriginalEmailLink } from './OriginalEmailLink';
import classes from './TicketComments.module.css';

const ROLE_COLORS: Record<Role, string> = { user: 'gray', agent: 'blue', admin: 'grape' };

function CommentItem({ comment }: { comment: Comment }) {
  const { author } = comment;
  // Notes reach staff only (the server never sends them to the owner); tinted and labelled so no
  // agent mistakes one for something the customer read.
  const note = comment.internal;
  return (
    <Group
      align="flex-start"
      gap="sm"
      wrap="nowrap"
      data-testid="comment"
      data-internal={note || undefined}
      p={note ? 'xs' : undefined}
      style={
        note
          ? { background: 'var(--mantine-color-yellow-0)', borderLeft: '3px solid var(--mantine-color-yellow-6)', borderRadius: 4 }
          : undefined
      }
    >
      <Avatar radius="xl" color={ROLE_COLORS[author.role]}>
        {initialsOf(author.name)}
      </Avatar>
      <Stack gap={2} style={{ flex: 1, minWidth: 0 }}>
        <Group gap="xs">
          <Text fw={600} size="sm">
            {author.name}
          </Text>
          <Badge size="xs" variant="light" color={ROLE_COLORS[author.role]}>
            {labelOf(author.role)}
          </Badge>
          {note && <NoteBadge />}
          {comment.emailStatus && <EmailStatusBadge status={comment.emailStatus} />}
          <Text size="xs" c="dimmed" title={formatDateTime(comment.createdAt)}>
            {fromNow(comment.createdAt)}
          </Text>
        </Group>
        <Text size="sm" style={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}>
          {withMergeLink(comment.content)}
        </Text>
        <AttachmentList files={comment.attachments} />
        {comment.inboundMessageId !== undefined && <OriginalEmailLink id={comment.inboundMessageId} />}
      </Stack>
    </Group>
  );
}

function CommentForm({ ticketId }: { ticketId: number }) {
  const client = useQueryClient();
  const validation = useLazyValidation(() => loadCommentChecks().then((checks) => checks.validateComment));
  // Kept in the browser per person and ticket until sent (useDraft.ts).
  const textDraft = useDraft(ticketId);
  const form = useForm({
    initialValues: { content: textDraft.content },
    validate: validation.validate,
    onValuesChange: ({ content }) => textDraft.setContent(content),
  });
  const draft = useAttachmentDraft();
  const { dropProps, dragging } = useFileDrop(draft);
  const [waitNotice, setWaitNotice] = useState(false);
  const add = useMutation({
    mutationFn: ({ content, attachmentIds }: { content: string; attachmentIds: number[] }) =>
      ticketsApi.comment(ticketId, content, attachmentIds.length > 0 ? { attachmentIds } : {}),
    // The comment shows before the form clears; its timeline entry comes with the socket's echo
    // (the cache holds each comment once), or with a re-read when no socket is live.
    onSuccess: async ({ comment }) => {
      await commentSaved(client, ticketId, comment);
      // Emptied, not reset: the initial value is the draft just sent. An empty box removes the draft.
      form.setFieldValue('content', '');
      form.resetDirty();
      draft.clear();
    },
  });

  return (
    <form
      onFocus={validation.prepare}
      onSubmit={(event) => {
        event.preventDefault();
        // A submit that beats the lazily loaded checks waits for them rather than skipping them.
        void validation
          .ready()
          .then(loadCommentChecks)
          .then(({ checkComment }) =>
            form.onSubmit(({ content }) => {
              // The form's checks have passed: this gives the comment as the server stores it.
              const checked = checkComment(content);
              if (!('content' in checked)) return;
              // A send waits for the files still going up rather than leaving them behind.
              setWaitNotice(draft.uploading);
              if (!draft.uploading) add.mutate({ content: checked.content, attachmentIds: draft.ids });
            })(),
          );
      }}
      noValidate
      {...dropProps}
    >
      <Stack gap="sm">
        {add.isError && <ErrorAlert message={screenMessage(add.error, COMMENT_TEXT.commentFailed)} error={add.error} />}
        <Textarea
          label="Add a comment"
          placeholder="Write a reply or add more details..."
          autosize
          minRows={3}
          maxRows={10}
          maxLength={LIMITS.comment.max}
          data-reply-box
          {...form.getInputProps('content')}
        />
        <DropHint visible={dragging} />
        <DraftFiles draft={draft} />
        {waitNotice && draft.uploading && (
          <Text size="sm" c="dimmed" role="status">
            {ATTACHMENT_TEXT.waitForUploads}
          </Text>
        )}
        <Group justify="space-between">
          <Group gap="xs">
            <AttachButton draft={draft} />
            <CannedResponsePicker ticketId={ticketId} onInsert={(text) => form.setFieldValue('content', form.values.content + text)} />
          </Group>
          <Button type="submit" leftSection={<IconMessagePlus size={16} />} loading={add.isPending}>
            Add Comment
          </Button>
        </Group>
      </Stack>
    </form>
  );
}

/** The detail carries the latest comments and history; older ones are fetched a page at a time, both lists at once. */
function ShowOlder({ ticket }: { ticket: TicketDetail }) {
  const client = useQueryClient();
  const load = useMutation({
    mutationFn: async () => {
      const oldestComment = ticket.comments[0];
      const oldestEntry = ticket.history[0];
      const [comments, history] = await Promise.all([
        ticket.hasOlderComments && oldestComment ? ticketsApi.olderComments(ticket.id, oldestComment.id) : undefined,
        ticket.hasOlderHistory && oldestEntry ? deskApi.olderHistory(ticket.id, oldestEntry.id) : undefined,
      ]);
      if (comments) olderCommentsLoaded(client, ticket.id, comments.comments, comments.hasMore);
      if (history) olderHistoryLoaded(client, ticket.id, history.history, history.hasMore);
    },
  });
  return (
    <Stack gap="xs" align="center">
      {load.isError && <ErrorAlert message={screenMessage(load.error, TICKET_TEXT.olderCommentsFailed)} error={load.error} />}
      <Button variant="subtle" size="xs" onClick={() => load.mutate()} loading={load.isPending}>
        {TICKET_TEXT.showOlderComments}
      </Button>
    </Stack>
  );
}

/**
 * A change standing between the messages: what changed, who, when. A service-level mark is the
 * scanner's, made when a deadline came: it names nobody (the entry's actor is the customer waiting).
 * A resolution entry quotes the notes it set, so a reopened ticket's earlier notes stay readable here.
 */
function ChangeItem({ entry }: { entry: HistoryEntry }) {
  const notes = entry.type === 'resolution' ? entry.to : null;
  return (
    <Group gap="xs" wrap="nowrap" pl={6} align={notes ? 'flex-start' : 'center'} data-testid="thread-change" data-history-type={entry.type}>
      <ThemeIcon size={24} radius="xl" variant="light" color="gray">
        <HistoryIcon type={entry.type} size={14} />
      </ThemeIcon>
      <Stack gap={4} style={{ minWidth: 0 }}>
        <Text size="sm" c="dimmed" style={{ overflowWrap: 'anywhere' }}>
          <Text span size="sm" fw={500} c="var(--mantine-color-text)">
            {historyTextWithLinks(entry, describeHistory(entry))}
          </Text>{' '}
          · {entry.type === 'sla' ? null : <>{entry.actor.name} · </>}
          <time dateTime={entry.createdAt} title={formatDateTime(entry.createdAt)}>
            {fromNow(entry.createdAt)}
          </time>
        </Text>
        {notes && (
          <Text size="sm" pl="xs" data-testid="resolution-notes" className={classes.notes}>
            {notes}
          </Text>
        )}
      </Stack>
    </Group>
  );
}

/**
 * The conversation on a ticket (docs/product.md#ticket-page): its messages with the changes between
 * them in time order, "Show older" above them, and the reply box pinned to the bottom of the screen
 * while the thread scrolls. `canComment` for staff and the owner (docs/api.md#ticket-endpoints).
 */
export function TicketComments({
  ticket,
  canComment,
  composer,
  notice,
}: {
  ticket: TicketDetail;
  canComment: boolean;
  /** Replaces the plain comment form (staff get the full composer). */
  composer?: ReactNode;
  /** A line above the reply box (the owner's "Replying will reopen this ticket."). */
  notice?: ReactNode;
}) {
  const items = threadItems(ticket);
  return (
    <Stack gap="md">
      {hasOlderThread(ticket) && <ShowOlder ticket={ticket} />}
      {items.length === 0 ? (
        <Text c="dimmed" size="sm">
          No comments yet.
        </Text>
      ) : (
        <Stack gap="md" aria-label="Thread">
          {items.map((item) =>
            item.kind === 'comment' ? (
              <CommentItem key={`c${item.comment.id}`} comment={item.comment} />
            ) : (
              <ChangeItem key={`h${item.entry.id}`} entry={item.entry} />
            ),
          )}
        </Stack>
      )}
      {canComment && (
        <Paper withBorder radius="md" p="md" bg="var(--mantine-color-gray-0)" className={classes.pinned} data-testid="reply-box">
          {notice}
          {composer ?? <CommentForm ticketId={ticket.id} />}
        </Paper>
      )}
    </Stack>
  );
}
