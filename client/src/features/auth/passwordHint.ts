import { PASSWORD_SPECIALS } from '@helpdesk/protocol';

/** SPEC §5's password rule in words, shown wherever a new password is chosen. */
export const PASSWORD_HINT = `At least 6 characters, with an uppercase letter, a number and one of ${PASSWORD_SPECIALS}`;
