import { createHmac, timingSafeEqual } from 'node:crypto';
import { MAX_ROW_ID } from '@helpdesk/protocol';

/** What a ticket's reply address is made of: the support address and the secret that signs it. */
export interface ThreadKeys {
  /** Lower-cased `local@domain`. */
  supportAddress: string;
  secret: string;
}

const SIG_LENGTH = 10;

/**
 * EMAIL_THREAD_SECRET, or one derived from the JWT secret, so a deployment that sets neither still
 * signs the same way in every process and after a restart (docs/api.md#email).
 */
export function threadKeys(supportAddress: string, emailThreadSecret: string | undefined, jwtSecret: string): ThreadKeys {
  const secret = emailThreadSecret ?? createHmac('sha256', jwtSecret).update('helpdesk email thread address').digest('hex');
  return { supportAddress: supportAddress.toLowerCase(), secret };
}

function signature(ticketId: number, keys: ThreadKeys): string {
  return createHmac('sha256', keys.secret).update(`t${ticketId}`).digest('hex').slice(0, SIG_LENGTH);
}

function splitAddress(address: string): { local: string; domain: string } {
  const at = address.lastIndexOf('@');
  return { local: address.slice(0, at), domain: address.slice(at + 1) };
}

/** `support+t<ticketId>-<sig>@domain`: the Reply-To of every mail about a ticket. */
export function threadAddress(ticketId: number, keys: ThreadKeys): string {
  const { local, domain } = splitAddress(keys.supportAddress);
  return `${local}+t${ticketId}-${signature(ticketId, keys)}@${domain}`;
}

/**
 * The ticket a plus-address names, or null when it is not one of ours or its signature does not
 * match (compared in constant time: the signature is what keeps strangers from posting to any ticket).
 */
export function parseThreadAddress(address: string, keys: ThreadKeys): number | null {
  const bare = address
    .trim()
    .replace(/^<(.*)>$/, '$1')
    .toLowerCase();
  const support = splitAddress(keys.supportAddress);
  const match = /^([^@+]+)\+t([1-9]\d{0,9})-([0-9a-f]{10})@([^@]+)$/.exec(bare);
  if (!match) return null;
  const [, local, id = '', sig = '', domain] = match;
  if (local !== support.local || domain !== support.domain) return null;
  const ticketId = Number(id);
  if (ticketId > MAX_ROW_ID) return null;
  const expected = Buffer.from(signature(ticketId, keys));
  const given = Buffer.from(sig);
  return timingSafeEqual(expected, given) ? ticketId : null;
}
