import { LIMITS, type Ticket } from '@helpdesk/protocol';
import { Button, Group, Modal, Stack, Text, Textarea } from '@mantine/core';
import { IconSend } from '@tabler/icons-react';
import { useState, type SubmitEvent } from 'react';
import { Conversation } from '../../components/collaboration/Conversation';
import { ReplyModeSwitch, type ReplyMode } from '../../components/collaboration/ReplyModeSwitch';
import { CannedResponsePicker } from '../../components/collaboration/CannedResponsePicker';

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
 * nothing is sent. The parent keys it by ticket, so each reply starts from an empty box.
 */
export function QuickReplyModal({ ticket, sending, onSend, onClose }: QuickReplyModalProps) {
  const [content, setContent] = useState('');
  const [mode, setMode] = useState<ReplyMode>('reply');
  const blank = content.trim() === '';
  const note = mode === 'note';

  const submit = (event: SubmitEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (!ticket || blank || sending) return;
    onSend(ticket, content.trim(), note);
  };

  return (
    <Modal
      opened={ticket !== null}
      onClose={onClose}
      title={ticket ? `Quick Reply — Ticket #${ticket.id}` : 'Quick Reply'}
      centered
      size="lg"
    >
      <form onSubmit={submit}>
        <Stack gap="md">
          {ticket && (
            <Text size="sm" fw={600} lineClamp={2}>
              {ticket.title || 'No Title'}
            </Text>
          )}
          {ticket && <Conversation ticketId={ticket.id} />}
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
          {ticket && <CannedResponsePicker ticketId={ticket.id} ticket={ticket} onInsert={(text) => setContent((c) => c + text)} />}
          <Group justify="flex-end" gap="sm">
            <Button variant="default" onClick={onClose} disabled={sending}>
              Cancel
            </Button>
            <Button type="submit" leftSection={<IconSend size={16} />} loading={sending} disabled={blank}>
              {note ? 'Add Note' : 'Send Reply'}
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
