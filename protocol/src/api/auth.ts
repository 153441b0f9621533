import { z } from '../zod.js';
import { ROLES } from '../enums.js';
import { emailField, newPasswordField, nameField, passwordField, requiredString } from '../fields.js';
import { MESSAGES } from '../messages.js';

const V = MESSAGES.validation;

export const registerBody = z.object({
  name: nameField,
  email: emailField,
  password: newPasswordField,
  role: z.enum(ROLES, { error: V.roleInvalid }).default('user'),
});
export type RegisterBody = z.infer<typeof registerBody>;

/** The signup form adds a confirmation that is checked locally and never sent (docs/product.md#sign-up). */
export const signupForm = z
  .object({
    name: nameField,
    email: emailField,
    password: newPasswordField,
    confirmPassword: z.string(),
    role: z.enum(ROLES, { error: V.roleInvalid }),
  })
  .refine((f) => f.password === f.confirmPassword, { path: ['confirmPassword'], message: V.passwordsDoNotMatch });

export const loginBody = z.object({ email: emailField, password: passwordField });
export type LoginBody = z.infer<typeof loginBody>;

export const requestPasswordResetBody = z.object({ email: emailField });
export type RequestPasswordResetBody = z.infer<typeof requestPasswordResetBody>;

export const resetPasswordBody = z.object({
  token: requiredString(V.tokenRequired).trim().min(1, V.tokenRequired).max(200, MESSAGES.auth.resetInvalid),
  newPassword: newPasswordField,
});
export type ResetPasswordBody = z.infer<typeof resetPasswordBody>;

export const resetPasswordForm = z
  .object({ newPassword: newPasswordField, confirmPassword: z.string() })
  .refine((f) => f.newPassword === f.confirmPassword, { path: ['confirmPassword'], message: V.passwordsDoNotMatch });

/** The API test page only needs both fields filled (docs/product.md#api-test-page). */
export const apiTestForm = z.object({
  email: z.string().trim().min(1, V.apiTestCredentialsRequired),
  password: z.string().min(1, V.apiTestCredentialsRequired),
});
