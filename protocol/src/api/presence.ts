import { z } from '../zod.js';
import { MAX_ROW_ID } from '../fields.js';

const ticketId = z.number().int().positive().max(MAX_ROW_ID);

/** `ticket:view` / `ticket:leave`: anything else is ignored by the server. */
export const ticketViewSignal = z.object({ ticketId });
export const ticketTypingSignal = z.object({ ticketId, typing: z.boolean() });
