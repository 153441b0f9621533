import type { Actor as PolicyActor } from '@helpdesk/protocol';

/**
 * The signed-in caller as the server resolves it from a token: the protocol policies' actor, plus
 * the name and email that history entries, events and mails carry.
 */
export interface Actor extends PolicyActor {
  name: string;
  email: string;
}
