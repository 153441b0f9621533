import { z } from './zod.js';
import { CATEGORIES } from './enums.js';
import { LIMITS } from './limits.js';
import { MESSAGES } from './messages.js';
import { isStrongPassword } from './passwordRule.js';

const V = MESSAGES.validation;

/** "Title is required" → "Title": the field's name as its messages start with it. */
const labelOf = (required: string) => required.replace(/ is required$/, '');

/** A string field whose absence and emptiness both read as "required". */
export const requiredString = (required: string) =>
  z.string({ error: (issue) => (issue.input === undefined || issue.input === null ? required : V.fieldMustBe(labelOf(required), 'text')) });

/**
 * PostgreSQL text cannot hold a NUL character, and a lone UTF-16 surrogate is not text at all: either
 * would fail at the database (or be silently altered), so every stored or searched text refuses them.
 */
// eslint-disable-next-line no-control-regex -- matching NUL is the point: PostgreSQL text cannot store it
const UNSTORABLE = /[\u0000\uD800-\uDFFF]/u;
export const isStorableText = (value: string): boolean => !UNSTORABLE.test(value);

/** Text that can be stored, refused with a message naming the field otherwise. */
export const storableString = (label: string, error?: string) =>
  z.string(error === undefined ? undefined : { error }).refine(isStorableText, V.invalidCharacter(label));

interface TextRule {
  required: string;
  min: number;
  max: number;
  tooShort: string;
  tooLong: string;
}

/** Trimmed text with a required message, then length bounds with their own messages. */
export const boundedText = (rule: TextRule) =>
  requiredString(rule.required)
    .trim()
    .refine(isStorableText, V.invalidCharacter(labelOf(rule.required)))
    .min(1, rule.required)
    .min(rule.min, rule.tooShort)
    .max(rule.max, rule.tooLong);

export const emailField = requiredString(V.emailRequired)
  .trim()
  .toLowerCase()
  .min(1, V.emailRequired)
  .max(LIMITS.email.max, V.emailInvalid)
  .pipe(z.email({ error: V.emailInvalid }));

/** Login only checks length: older accounts may predate the strength rule. */
export const passwordField = requiredString(V.passwordRequired)
  .min(1, V.passwordRequired)
  // Hashed as UTF-8, a lone surrogate would become U+FFFD: different passwords would then match.
  .refine(isStorableText, V.invalidCharacter('Password'))
  .min(LIMITS.password.min, V.passwordTooShort)
  .max(LIMITS.password.max, V.passwordTooLong);

export { PASSWORD_SPECIALS, isStrongPassword } from './passwordRule.js';

/** The new-password rule (docs/product.md#validation), used wherever a password is set. */
export const newPasswordField = passwordField.refine(isStrongPassword, V.passwordWeak);

export const nameField = boundedText({
  required: V.nameRequired,
  min: 1,
  max: LIMITS.name.max,
  tooShort: V.nameRequired,
  tooLong: V.nameTooLong,
});

/** The largest id a row can have: ids are PostgreSQL integers. */
export const MAX_ROW_ID = 2_147_483_647;

/** Route ids: positive int4 values; anything else, or none, is not an id. */
export const idParam = z
  .string({ error: V.idInvalid })
  .regex(/^[1-9]\d{0,9}$/, V.idInvalid)
  .transform(Number)
  .refine((n) => n <= MAX_ROW_ID, V.idInvalid);

/** A row's id in a JSON body, refused with the field's one `message` whatever is wrong with it. */
export const rowIdField = (message: string) => z.number({ error: message }).int(message).positive(message).max(MAX_ROW_ID, message);

/** A ticket's or an article's category, one message for both (docs/product.md#validation). */
export const categoryField = z.enum(CATEGORIES, { error: V.categoryInvalid });

/**
 * Query values arrive as strings; an empty one means "not filtered". One given twice arrives as a
 * list, refused as such ("… must be one value, not a list") before any rule of the value's own.
 */
export const optionalQuery = <T extends z.ZodType>(schema: T) =>
  z.preprocess((value, ctx) => {
    if (!Array.isArray(value)) return value === '' ? undefined : value;
    ctx.addIssue({ code: 'invalid_type', expected: 'string', input: value });
    return z.NEVER;
  }, schema.optional());

export const pageQuery = optionalQuery(
  z
    .string()
    .regex(/^[1-9]\d{0,6}$/, V.pageInvalid)
    .transform(Number),
).transform((n) => n ?? 1);

export const limitQuery = (fallback: number, max: number, message: string = V.limitInvalid) =>
  optionalQuery(
    z
      .string()
      .regex(/^\d{1,3}$/, message)
      .transform(Number)
      .refine((n) => n >= 1 && n <= max, message),
  ).transform((n) => n ?? fallback);

export const searchQuery = optionalQuery(storableString('Search').trim().max(LIMITS.search.max, V.searchTooLong)).transform((s) =>
  s ? s : undefined,
);
