import type { Ticket, TicketStatus } from '@helpdesk/protocol';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { commentSaved, ticketSaved } from '../../api/ticketCache';
import { ticketsApi } from '../../api/tickets';
import { labelOf } from '../../lib/text';
import { notifyError, notifySuccess } from '../../lib/notify';

export const STATUS_CHANGE_FAILED = 'Failed to update ticket status';
export const REPLY_FAILED = 'Failed to add comment';
export const REPLY_SENT = 'Reply sent';

/**
 * Start on open tickets, Resolve on tickets in progress or waiting on the customer; nothing on resolved
 * or closed (docs/product.md#ticket-lifecycle).
 */
export const quickStatusFor = (status: TicketStatus): TicketStatus | null =>
  status === 'open' ? 'in_progress' : status === 'in_progress' || status === 'pending' ? 'resolved' : null;
/** A ticket still being worked takes replies: one waiting on the customer too (a nudge, a follow-up question). */
export const canReply = (status: TicketStatus): boolean => status === 'open' || status === 'in_progress' || status === 'pending';

/**
 * The quick status change shows once the server has accepted it (docs/product.md#agent-dashboard), in every cached page that
 * holds the row; the counts and the filtered pages it may leave follow with the socket's echo.
 */
export function useQuickStatusChange() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ id, status }: { id: number; status: TicketStatus }) => ticketsApi.update(id, { status }),
    onSuccess: ({ ticket }) => {
      void ticketSaved(client, ticket);
      notifySuccess(`Ticket #${ticket.id} is now ${labelOf(ticket.status)}`);
    },
    onError: () => notifyError(STATUS_CHANGE_FAILED),
  });
}

/** The comment's count on the row and its timeline entry come with the socket's comment-added echo. */
export function useQuickReply() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ id, content, internal = false }: { id: number; content: string; internal?: boolean }) =>
      ticketsApi.comment(id, content, { internal }),
    onSuccess: ({ comment }, { id }) => {
      void commentSaved(client, id, comment);
      notifySuccess(REPLY_SENT);
    },
    onError: () => notifyError(REPLY_FAILED),
  });
}

export const ASSIGN_FAILED = 'Failed to assign the ticket';

/** What an assignment saved says, from the row's menu or the update screen. */
export const assignedMessage = (ticket: Ticket): string =>
  ticket.assignedAgent ? `Ticket #${ticket.id} assigned to ${ticket.assignedAgent.name}` : `Ticket #${ticket.id} unassigned`;

/** Assign to me, to a staff member, or unassign (null), from a row's menu. */
export function useAssign() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ id, agentId }: { id: number; agentId: number | null }) => ticketsApi.update(id, { assignedAgentId: agentId }),
    onSuccess: ({ ticket }) => {
      void ticketSaved(client, ticket);
      notifySuccess(assignedMessage(ticket));
    },
    onError: () => notifyError(ASSIGN_FAILED),
  });
}
