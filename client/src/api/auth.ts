import type { AuthResponse, LoginBody, MessageResponse, RegisterBody, UserResponse } from '@helpdesk/protocol';
import { http } from './http';

export const authApi = {
  // Signing in proves who you are afresh; an old token must not ride along (the API test page
  // tests credentials while someone may be signed in, and its 401 must not end their session).
  login: (body: LoginBody) => http.post<AuthResponse>('/auth/login', body, { anonymous: true }),
  register: (body: RegisterBody) => http.post<AuthResponse>('/auth/register', body),
  verify: () => http.get<UserResponse>('/auth/verify'),
  requestPasswordReset: (email: string) => http.post<MessageResponse>('/auth/request-password-reset', { email }),
  resetPassword: (token: string, newPassword: string) => http.post<MessageResponse>('/auth/reset-password', { token, newPassword }),
};
