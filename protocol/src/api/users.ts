import { z } from 'zod';
import { NOTIFICATION_PREFERENCES, ROLES, STAFF_ROLES } from '../enums.js';
import type { User, UserRef } from '../entities.js';
import { emailField, nameField, newPasswordField, optionalQuery } from '../fields.js';
import { MESSAGES } from '../messages.js';

const V = MESSAGES.validation;

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

export interface UsersResponse {
  success: true;
  users: User[];
}
/** GET /users/staff: who a ticket can be assigned to (agents and admins), for every staff member. */
export interface StaffListResponse {
  success: true;
  staff: UserRef[];
}
export interface UserMessageResponse {
  success: true;
  user: User;
  message: string;
}
