import type { CsatSurvey, TicketCsat } from '@helpdesk/protocol';
import type { CsatSurveyRow } from '../db/queries/csat.js';

export const presentSurvey = (row: CsatSurveyRow): CsatSurvey => ({
  ticketId: row.ticketId,
  title: row.title,
  rating: row.rating,
  comment: row.comment,
  expiresAt: row.expiresAt.toISOString(),
});

/** A ticket's rating as staff see it: its newest survey's answer, null until that one is answered. */
export const presentTicketCsat = (row: CsatSurveyRow | undefined): TicketCsat | null =>
  row?.rating && row.answeredAt ? { rating: row.rating, comment: row.comment, at: row.answeredAt.toISOString() } : null;
