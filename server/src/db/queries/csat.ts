import { and, desc, eq, gt, type SQL } from 'drizzle-orm';
import type { CsatRating } from '@helpdesk/protocol';
import type { Db } from '../client.js';
import { literalLimit } from '../plannedStatements.js';
import { csatSurveys, tickets } from '../schema/index.js';

export interface CsatSurveyRow {
  id: number;
  ticketId: number;
  userId: number;
  title: string;
  expiresAt: Date;
  rating: CsatRating | null;
  comment: string | null;
  answeredAt: Date | null;
}

const surveyColumns = {
  id: csatSurveys.id,
  ticketId: csatSurveys.ticketId,
  userId: csatSurveys.userId,
  title: tickets.title,
  expiresAt: csatSurveys.expiresAt,
  rating: csatSurveys.rating,
  comment: csatSurveys.comment,
  answeredAt: csatSurveys.answeredAt,
};

const findSurvey = async (db: Db, where: SQL | undefined): Promise<CsatSurveyRow | undefined> => {
  const [row] = await db
    .select(surveyColumns)
    .from(csatSurveys)
    .innerJoin(tickets, eq(tickets.id, csatSurveys.ticketId))
    .where(where)
    .orderBy(desc(csatSurveys.id))
    // In the text: the ticket page reads it on the planned-once connection (db/plannedStatements.ts).
    .limit(literalLimit(1));
  return row;
};

/** The survey a link's token hash names, while it lasts (neither expired nor ended by a newer one). */
export const findLiveSurveyByHash = (db: Db, tokenHash: string, now: Date) =>
  findSurvey(db, and(eq(csatSurveys.tokenHash, tokenHash), gt(csatSurveys.expiresAt, now)));

/** A ticket's newest survey, live or not (off csat_surveys_ticket_idx). */
export const findNewestSurvey = (db: Db, ticketId: number) => findSurvey(db, eq(csatSurveys.ticketId, ticketId));

/**
 * A new survey for a resolution of the ticket. Its older ones end now: only the newest link works,
 * so an answer always counts for the latest resolution (docs/decisions.md#satisfaction-surveys).
 */
export async function insertSurvey(
  tx: Db,
  values: { ticketId: number; userId: number; tokenHash: string; expiresAt: Date },
  now: Date,
): Promise<void> {
  await tx
    .update(csatSurveys)
    .set({ expiresAt: now })
    .where(and(eq(csatSurveys.ticketId, values.ticketId), gt(csatSurveys.expiresAt, now)));
  await tx.insert(csatSurveys).values({ ...values, createdAt: now });
}

/** Records an answer to a live survey, over any earlier one; undefined when it has ended meanwhile. */
export async function answerSurvey(
  tx: Db,
  id: number,
  answer: { rating: CsatRating; comment: string | null },
  now: Date,
): Promise<{ ticketId: number; userId: number; answeredAt: Date } | undefined> {
  const [row] = await tx
    .update(csatSurveys)
    .set({ ...answer, answeredAt: now })
    .where(and(eq(csatSurveys.id, id), gt(csatSurveys.expiresAt, now)))
    .returning({ ticketId: csatSurveys.ticketId, userId: csatSurveys.userId, answeredAt: csatSurveys.answeredAt });
  return row && row.answeredAt ? { ...row, answeredAt: row.answeredAt } : undefined;
}
