import { LIMITS, type Ticket } from '@helpdesk/protocol';
import { Button, Group, Modal, Stack, Text, Textarea } from '@mantine/core';
import { IconSend } from '@tabler/icons-react';
import { useAtomValue } from 'jotai';
import { useState, type SubmitEvent } from 'react';
import { useTicket } from '../../api/useTicket';
import { baselineOf, collisionSince, type Baseline, type Collision } from '../../components/collaboration/collision';
import { COLLISION_TEXT, CollisionNotice } from '../../components/collaboration/CollisionNotice';
import { Conversation } from '../../components/collaboration/Conversation';
import { ReplyModeSwitch, type ReplyMode } from '../../components/collaboration/ReplyModeSwitch';
import { CannedResponsePicker } from '../../components/collaboration/CannedResponsePicker';
import { userAtom } from '../../state/session';

interface QuickReplyModalProps {
  /** The ticket being answered; null keeps the modal closed. */
  ticket: Ticket | null;
  sending: boolean;
  onSend: (ticket: Ticket, content: string, internal: boolean) => void;
  onClose: () => void;
}

/**
 * Quick Reply (docs/product.md#agent-dashboard) asks for a response and posts it as a comment, or as
 * an internal note; the latest comments show above the box, so the agent answers the conversation,
 * not just its title. As with the prompt it stands in for, an empty or blank answer is ignored:
 * nothing is sent. The form is keyed by ticket, so each reply starts from an empty box; the modal
 * itself stays mounted, so on closing Mantine returns the focus to what opened it.
 */
export function QuickReplyModal({ ticket, sending, onSend, onClose }: QuickReplyModalProps) {
  return (
    <Modal
      opened={ticket !== null}
      onClose={onClose}
      title={ticket ? `Quick Reply — Ticket #${ticket.id}` : 'Quick Reply'}
      centered
      size="lg"
    >
      {ticket && <QuickReplyForm key={ticket.id} ticket={ticket} sending={sending} onSend={onSend} onClose={onClose} />}
    </Modal>
  );
}

/**
 * As in the reply box, a reply is held back with what changed when someone else replied or changed
 * the ticket since its conversation first showed here (kept live by events), until the agent sends
 * anyway or looks first.
 */
function QuickReplyForm({ ticket, sending, onSend, onClose }: QuickReplyModalProps & { ticket: Ticket }) {
  const [content, setContent] = useState('');
  const [mode, setMode] = useState<ReplyMode>('reply');
  const blank = content.trim() === '';
  const note = mode === 'note';
  const me = useAtomValue(userAtom);
  const { ticket: detail } = useTicket(ticket.id);
  const [baseline, setBaseline] = useState<Baseline | null>(null);
  // The first copy read is the starting point (state set while rendering: no render shows it missing).
  if (detail && !baseline) setBaseline(baselineOf(detail));
  const [collision, setCollision] = useState<Collision | null>(null);

  const send = () => {
    setCollision(null);
    onSend(ticket, content.trim(), note);
  };
  const submit = (event: SubmitEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (blank || sending) return;
    const found = me && detail && baseline ? collisionSince(baseline, detail, me.id) : undefined;
    if (found) setCollision(found);
    else send();
  };

  return (
    <form onSubmit={submit}>
      <Stack gap="md">
        <Text size="sm" fw={600} lineClamp={2}>
          {ticket.title || 'No Title'}
        </Text>
        <Conversation ticketId={ticket.id} />
        <ReplyModeSwitch value={mode} onChange={setMode} />
        <Textarea
          label={note ? 'Internal note (staff only)' : 'Your response'}
          placeholder={note ? 'Write a note for the team...' : 'Type a reply to the customer...'}
          styles={note ? { input: { background: 'var(--mantine-color-yellow-0)' } } : undefined}
          autosize
          minRows={4}
          maxRows={10}
          maxLength={LIMITS.comment.max}
          value={content}
          onChange={(event) => setContent(event.currentTarget.value)}
          data-autofocus
        />
        <CannedResponsePicker ticketId={ticket.id} ticket={ticket} onInsert={(text) => setContent((c) => c + text)} />
        {collision && detail ? (
          <Stack gap="xs" role="alert" aria-label={COLLISION_TEXT.title}>
            <Text fw={600}>{COLLISION_TEXT.title}</Text>
            <CollisionNotice
              found={collision}
              sending={sending}
              onReview={() => {
                setBaseline(baselineOf(detail));
                setCollision(null);
              }}
              onSendAnyway={send}
            />
          </Stack>
        ) : (
          <Group justify="flex-end" gap="sm">
            <Button variant="default" onClick={onClose} disabled={sending}>
              Cancel
            </Button>
            <Button type="submit" leftSection={<IconSend size={16} />} loading={sending} disabled={blank}>
              {note ? 'Add Note' : 'Send Reply'}
            </Button>
          </Group>
        )}
      </Stack>
    </form>
  );
}
