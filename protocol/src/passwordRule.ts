// Apart from fields.ts, which imports zod: the client's password hint, shown by pages without a
// password form, names the special characters.

export const PASSWORD_SPECIALS = '!@#$%^&*';
const hasUpper = /[A-Z]/;
const hasDigit = /\d/;
const hasSpecial = /[!@#$%^&*]/;
export const isStrongPassword = (value: string): boolean => hasUpper.test(value) && hasDigit.test(value) && hasSpecial.test(value);
