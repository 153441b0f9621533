import type {
  ChangePasswordBody,
  ChangePasswordResponse,
  MessageResponse,
  NotificationPreference,
  Role,
  StaffDirectoryResponse,
  UserMessageResponse,
  UserResponse,
  UsersResponse,
} from '@helpdesk/protocol';
import { queryOptions } from '@tanstack/react-query';
import { http } from './http';
import { queryKeys } from './queryKeys';

export interface StaffInput {
  name: string;
  email: string;
  password?: string;
  role?: Extract<Role, 'agent' | 'admin'>;
}

export const usersApi = {
  profile: (signal?: AbortSignal) => http.get<UserResponse>('/users/profile', { signal }),
  updatePreferences: (email_notifications: NotificationPreference) =>
    http.put<UserMessageResponse>('/users/preferences', { email_notifications }),
  staffDirectory: (signal?: AbortSignal) => http.get<StaffDirectoryResponse>('/users/staff', { signal }),
  list: (role?: Role, signal?: AbortSignal) => http.get<UsersResponse>('/users', { query: { role }, signal }),
  create: (body: StaffInput) => http.post<UserMessageResponse>('/users', body),
  update: (id: number, body: Partial<StaffInput>) => http.put<UserMessageResponse>(`/users/${id}`, body),
  changePassword: (body: ChangePasswordBody) => http.put<ChangePasswordResponse>('/users/password', body),
  remove: (id: number) => http.delete<MessageResponse>(`/users/${id}`),
};

/** Who a ticket can be assigned to. Staff change rarely: kept for the session's screens and read again on focus. */
export const staffDirectoryQuery = queryOptions({
  queryKey: queryKeys.users.staffDirectory,
  queryFn: ({ signal }) => usersApi.staffDirectory(signal),
  staleTime: 60_000,
});
