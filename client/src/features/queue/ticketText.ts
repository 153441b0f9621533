import type { UserRef } from '@helpdesk/protocol';

/**
 * The parts of a ticket the agent screens read as text, typed as they may arrive rather than as the
 * protocol promises them: answers are not validated on arrival, and a ticket without its owner or
 * description still renders.
 */
interface ArrivedTicket {
  user?: UserRef | null;
  description?: string | null;
}

/** Who raised the ticket; 'Unknown' when the owner or the owner's name is missing (docs/product.md#agent-dashboard). */
export const ownerName = ({ user }: ArrivedTicket): string => user?.name || 'Unknown';

/** The description, or '' when it is missing. */
export const descriptionOf = ({ description }: ArrivedTicket): string => description ?? '';
