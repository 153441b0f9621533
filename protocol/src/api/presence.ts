import { z } from '../zod.js';

const ticketId = z.number().int().positive().max(2_147_483_647);

/** `ticket:view` / `ticket:leave`: anything else is ignored by the server. */
export const ticketViewSignal = z.object({ ticketId });
export const ticketTypingSignal = z.object({ ticketId, typing: z.boolean() });
