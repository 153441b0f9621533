import { PASSWORD_SPECIALS } from '@helpdesk/protocol';

/** The new-password rule of docs/product.md#validation in words, shown wherever a new password is chosen. */
export const PASSWORD_HINT = `At least 6 characters, with an uppercase letter, a number and one of ${PASSWORD_SPECIALS}`;
