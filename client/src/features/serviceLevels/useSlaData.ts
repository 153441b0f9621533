import type { CalendarBody, PolicyBody, SlaCalendar, SlaPolicy } from '@helpdesk/protocol';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { queryKeys } from '../../api/queryKeys';
import { slaApi } from '../../api/sla';
import { notifyError, notifySuccess } from '../../lib/notify';
import { SLA_TEXT } from './texts';

export const useCalendars = () =>
  useQuery({ queryKey: queryKeys.sla.calendars, queryFn: ({ signal }) => slaApi.calendars(signal), select: (data) => data.calendars });
export const usePolicies = () =>
  useQuery({ queryKey: queryKeys.sla.policies, queryFn: ({ signal }) => slaApi.policies(signal), select: (data) => data.policies });

/** Saves a new or changed calendar; the dialog shows a failure itself, so it can be corrected there. */
export function useSaveCalendar(calendar: SlaCalendar | null, onSaved: () => void) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: CalendarBody) => (calendar ? slaApi.updateCalendar(calendar.id, body) : slaApi.createCalendar(body)),
    onSuccess: async () => {
      notifySuccess(SLA_TEXT.calendarSaved);
      onSaved();
      await client.invalidateQueries({ queryKey: queryKeys.sla.calendars });
    },
  });
}

export function useSavePolicy(policy: SlaPolicy | null, onSaved: () => void) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: PolicyBody) => (policy ? slaApi.updatePolicy(policy.id, body) : slaApi.createPolicy(body)),
    onSuccess: async () => {
      notifySuccess(SLA_TEXT.policySaved);
      onSaved();
      await client.invalidateQueries({ queryKey: queryKeys.sla.policies });
    },
  });
}

export function useDeleteCalendar() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (calendar: SlaCalendar) => slaApi.removeCalendar(calendar.id),
    onSuccess: async (answer) => {
      notifySuccess(answer.message);
      await client.invalidateQueries({ queryKey: queryKeys.sla.calendars });
    },
    onError: (error) => notifyError(error.message, SLA_TEXT.deleteFailed),
  });
}

export function useDeletePolicy() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (policy: SlaPolicy) => slaApi.removePolicy(policy.id),
    onSuccess: async (answer) => {
      notifySuccess(answer.message);
      await client.invalidateQueries({ queryKey: queryKeys.sla.policies });
    },
    onError: (error) => notifyError(error.message, SLA_TEXT.deleteFailed),
  });
}

/** Moves a policy one place; the list shows the new order at once and the server's answer after. */
export function useReorderPolicies() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (ids: number[]) => slaApi.reorderPolicies(ids),
    onSuccess: (answer) => {
      client.setQueryData(queryKeys.sla.policies, answer);
      notifySuccess(SLA_TEXT.orderSaved);
    },
    onError: async (error) => {
      notifyError(error.message, SLA_TEXT.saveFailed);
      await client.invalidateQueries({ queryKey: queryKeys.sla.policies });
    },
  });
}
