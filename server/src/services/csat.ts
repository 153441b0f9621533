import { CSAT_TOKEN_PATTERN, MESSAGES, canViewTicket, isStaff, type CsatSurvey } from '@helpdesk/protocol';
import type { Db } from '../db/client.js';
import { answerSurvey, findLiveSurveyByHash, findNewestSurvey, insertSurvey, type CsatSurveyRow } from '../db/queries/csat.js';
import { findTicketRow } from '../db/queries/tickets.js';
import type { Actor } from '../lib/actor.js';
import { ForbiddenError, NotFoundError } from '../lib/errors.js';
import { randomToken, sha256 } from '../lib/tokens.js';
import { presentSurvey, presentTicketCsat } from '../presenters/csat.js';
import type { ServiceContext } from './context.js';

const DAY_MS = 86_400_000;

export interface CsatAnswer {
  rating: NonNullable<CsatSurveyRow['rating']>;
  comment: string | null;
}

/**
 * A new survey for a ticket just resolved, written in the resolution's transaction (mail/surveyMail.ts).
 * Returns the link's token: only its hash is kept, so this is the one moment it exists in full.
 */
export async function issueSurvey(tx: Db, ticket: { id: number; ownerId: number }, ttlDays: number, now: Date): Promise<string> {
  const token = randomToken();
  const expiresAt = new Date(now.getTime() + ttlDays * DAY_MS);
  await insertSurvey(tx, { ticketId: ticket.id, userId: ticket.ownerId, tokenHash: sha256(token), expiresAt }, now);
  return token;
}

/**
 * Satisfaction surveys (docs/api.md#satisfaction-surveys): read and answered through the mailed link
 * by whoever holds it, or by the signed-in owner from the ticket page. Reading records nothing; each
 * answer replaces the one before and is announced to staff once committed.
 */
export function createCsatService(
  { db, withTransaction }: Pick<ServiceContext, 'db' | 'withTransaction'>,
  now: () => Date = () => new Date(),
) {
  const linkInvalid = () => new NotFoundError(MESSAGES.csat.linkInvalid);

  /** A malformed token is answered like an unknown one, without a read. */
  const surveyOfToken = async (token: string): Promise<CsatSurveyRow> => {
    const row = CSAT_TOKEN_PATTERN.test(token) ? await findLiveSurveyByHash(db, sha256(token), now()) : undefined;
    if (!row) throw linkInvalid();
    return row;
  };

  /** The owner's newest survey of their ticket, live or not; another's ticket is as unknown as a missing one. */
  const ownersSurvey = async (actor: Actor, ticketId: number): Promise<CsatSurveyRow | undefined> => {
    const row = await findTicketRow(db, ticketId);
    if (!row || !canViewTicket(actor, row.ticket)) throw new NotFoundError(MESSAGES.tickets.notFound);
    if (isStaff(actor)) throw new ForbiddenError(MESSAGES.csat.ownerOnly);
    const survey = await findNewestSurvey(db, ticketId);
    return survey && survey.expiresAt > now() ? survey : undefined;
  };

  const record = (survey: CsatSurveyRow, answer: CsatAnswer): Promise<void> =>
    withTransaction(async (tx, emit) => {
      const answered = await answerSurvey(tx, survey.id, answer, now());
      // Ended by a newer resolution, or expired, between the read and this write.
      if (!answered) throw linkInvalid();
      const csat = presentTicketCsat({ ...survey, ...answer, answeredAt: answered.answeredAt });
      if (csat) emit('csat.received', { ticketId: answered.ticketId, ownerId: answered.userId, surveyId: survey.id, csat });
    });

  return {
    async read(token: string): Promise<CsatSurvey> {
      return presentSurvey(await surveyOfToken(token));
    },

    async answer(token: string, answer: CsatAnswer): Promise<void> {
      await record(await surveyOfToken(token), answer);
    },

    /** The owner's page: the ticket's survey while it can be answered, with their last answer. */
    async ofOwner(actor: Actor, ticketId: number): Promise<CsatSurvey | null> {
      const survey = await ownersSurvey(actor, ticketId);
      return survey ? presentSurvey(survey) : null;
    },

    async answerAsOwner(actor: Actor, ticketId: number, answer: CsatAnswer): Promise<void> {
      const survey = await ownersSurvey(actor, ticketId);
      if (!survey) throw new NotFoundError(MESSAGES.csat.noSurvey);
      await record(survey, answer);
    },
  };
}

export type CsatService = ReturnType<typeof createCsatService>;
