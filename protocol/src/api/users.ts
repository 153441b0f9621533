import { z } from '../zod.js';
import { NOTIFICATION_PREFERENCES, ROLES, STAFF_ROLES } from '../enums.js';
import { emailField, nameField, newPasswordField, optionalQuery, requiredString } from '../fields.js';
import { LIMITS } from '../limits.js';
import { MESSAGES } from '../messages.js';

const V = MESSAGES.validation;
const passwordMax = LIMITS.password.max;

export const preferencesBody = z.object({
  email_notifications: z.enum(NOTIFICATION_PREFERENCES, { error: V.notificationPreferenceInvalid }),
});
export type PreferencesBody = z.infer<typeof preferencesBody>;

export const listUsersQuery = z.object({
  role: optionalQuery(z.enum(ROLES, { error: V.roleInvalid })),
});

const staffRole = z.enum(STAFF_ROLES, { error: V.staffRoleInvalid });

/** Admin-created accounts are support staff; the role defaults to agent (docs/api.md#user-endpoints). */
export const createStaffBody = z.object({
  name: nameField,
  email: emailField,
  password: newPasswordField,
  role: staffRole.default('agent'),
});
export type CreateStaffBody = z.infer<typeof createStaffBody>;

/** Edit: email is locked and a blank password keeps the current one (docs/product.md#support-management). */
export const updateStaffBody = z.object({
  name: nameField.optional(),
  email: emailField.optional(),
  password: z.preprocess((v) => (v === '' || v === null ? undefined : v), newPasswordField.optional()),
  role: staffRole.optional(),
});
export type UpdateStaffBody = z.infer<typeof updateStaffBody>;

/** The dialog of the support-management screen: password required on create only. */
export const staffForm = (mode: 'create' | 'edit') => (mode === 'create' ? createStaffBody : updateStaffBody);

const U = MESSAGES.users;

/**
 * Settings → Change password. The current password is only checked for presence and length here
 * (older accounts may predate the strength rule); the new one follows the sign-up rules.
 */
export const changePasswordBody = z.object({
  currentPassword: requiredString(U.currentPasswordRequired).min(1, U.currentPasswordRequired).max(passwordMax, U.currentPasswordWrong),
  newPassword: newPasswordField,
});
export type ChangePasswordBody = z.infer<typeof changePasswordBody>;

/** The form adds a confirmation that is checked locally and never sent. */
export const changePasswordForm = z
  .object({ currentPassword: changePasswordBody.shape.currentPassword, newPassword: newPasswordField, confirmPassword: z.string() })
  .refine((f) => f.newPassword === f.confirmPassword, { path: ['confirmPassword'], message: V.passwordsDoNotMatch });
