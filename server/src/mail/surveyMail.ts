import { isStaff, wantsNotice } from '@helpdesk/protocol';
import type { BeforeCommit } from '../db/unitOfWork.js';
import { issueSurvey } from '../services/csat.js';
import { newMessageId, queueMail } from './outbox.js';
import { csatSurveyMail } from './templates.js';
import { findTicketOwner, mailHeaders, ownerThreadHeaders } from './ticketMail.js';
import type { ThreadKeys } from './threadAddress.js';

export interface SurveyMailOptions {
  publicUrl: string;
  mailFrom: string;
  /** The support address and the secret of the ticket's plus-address, its Reply-To. */
  threadKeys: ThreadKeys;
  /** CSAT_TOKEN_TTL_DAYS: how long each link works. */
  tokenTtlDays: number;
}

/**
 * Every change of a ticket to resolved, whichever way it was made (an edit, a bulk change, a reply
 * that resolves, a mail), issues a satisfaction survey and mails its links to the owner, in the
 * change's transaction (a beforeCommit hook of db/unitOfWork.ts): no resolution without its survey,
 * no link to a survey that was rolled back (docs/api.md#satisfaction-surveys). Staff owners are not
 * asked (staff rate nobody's work); an owner who resolved it themselves or wants no mail gets none,
 * yet can answer on the page. Like every mail to a ticket's owner it is in the ticket's thread, as
 * the status mail written with it is: an answer to it lands on the ticket.
 */
export function surveyMail({ publicUrl, mailFrom, threadKeys, tokenTtlDays }: SurveyMailOptions): BeforeCommit {
  const { supportAddress } = threadKeys;
  return async (tx, events, emit) => {
    const now = new Date();
    for (const event of events) {
      if (event.name !== 'ticket.updated' || event.payload.statusChange?.to !== 'resolved') continue;
      const owner = await findTicketOwner(tx, event.payload.ticketId);
      if (!owner || owner.deletedAt || isStaff(owner)) continue;
      const token = await issueSurvey(tx, { id: owner.id, ownerId: event.payload.ownerId }, tokenTtlDays, now);
      // Nobody is mailed about their own change (docs/api.md#email); the page still offers the survey.
      if (event.payload.actor.id === event.payload.ownerId || !wantsNotice(owner.preference, { kind: 'status', to: 'resolved' })) continue;
      const mail = csatSurveyMail({
        to: owner.email,
        name: owner.name,
        ticket: owner,
        surveyUrl: `${publicUrl}/rate/${token}`,
        days: tokenTtlDays,
      });
      await queueMail(tx, emit, {
        kind: 'notification',
        messageId: newMessageId(supportAddress),
        ticketId: owner.id,
        threaded: true,
        message: {
          ...mail,
          from: mailFrom,
          ...(await ownerThreadHeaders(tx, owner.id, threadKeys)),
          headers: mailHeaders(supportAddress, true),
        },
      });
    }
  };
}
