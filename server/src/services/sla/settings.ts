import { LIMITS, MESSAGES, type CalendarBody, type PolicyBody, type SlaCalendar, type SlaPolicy } from '@helpdesk/protocol';
import * as queries from '../../db/queries/sla.js';
import type { CalendarRecord, PolicyRecord } from '../../db/queries/sla.js';
import { ConflictError, NotFoundError, ValidationError } from '../../lib/errors.js';
import type { ServiceContext } from '../context.js';
import type { SlaReapply } from './reapply.js';

const S = MESSAGES.sla;
const L = LIMITS.sla;

const presentCalendar = ({ id, name, timeZone, hours, holidays }: CalendarRecord): SlaCalendar => ({ id, name, timeZone, hours, holidays });
const presentPolicy = ({
  id,
  name,
  position,
  calendarId,
  requesterDomains,
  targets,
  warnBeforeMinutes,
  active,
}: PolicyRecord): SlaPolicy => ({
  id,
  name,
  position,
  calendarId,
  requesterDomains,
  targets,
  warnBeforeMinutes,
  active,
});

/**
 * Business calendars and SLA policies: admins write them, staff read them (the routes check roles).
 * Every change that can move a ticket's policy or deadlines re-applies them to open tickets, after
 * the answer, in the background (`reapply`).
 */
export function createSlaSettingsService({ db }: Pick<ServiceContext, 'db'>, reapply?: Pick<SlaReapply, 'request'>) {
  const reapplied = <T>(value: T): T => {
    reapply?.request();
    return value;
  };
  const found = <T>(row: T | undefined, message: string): T => {
    if (row === undefined) throw new NotFoundError(message);
    return row;
  };
  const calendarKnown = <T>(result: T | 'no-calendar'): T => {
    if (result === 'no-calendar') throw new ValidationError(S.calendarIdInvalid);
    return result;
  };

  return {
    async calendars(): Promise<SlaCalendar[]> {
      return (await queries.listCalendars(db)).map(presentCalendar);
    },
    async calendar(id: number): Promise<SlaCalendar> {
      return presentCalendar(found(await queries.findCalendar(db, id), S.calendarNotFound));
    },
    async createCalendar(input: CalendarBody): Promise<SlaCalendar> {
      const row = await queries.insertCalendar(db, input, L.calendars);
      if (!row) throw new ValidationError(S.tooManyCalendars(L.calendars));
      return presentCalendar(row);
    },
    async updateCalendar(id: number, input: CalendarBody): Promise<SlaCalendar> {
      return reapplied(presentCalendar(found(await queries.updateCalendar(db, id, input), S.calendarNotFound)));
    },
    async removeCalendar(id: number): Promise<void> {
      const outcome = await queries.deleteCalendar(db, id);
      if (outcome === 'in-use') throw new ConflictError(S.calendarInUse);
      if (!outcome) throw new NotFoundError(S.calendarNotFound);
    },

    async policies(): Promise<SlaPolicy[]> {
      return (await queries.listPolicies(db)).map(presentPolicy);
    },
    async policy(id: number): Promise<SlaPolicy> {
      return presentPolicy(found(await queries.findPolicy(db, id), S.policyNotFound));
    },
    async createPolicy(input: PolicyBody): Promise<SlaPolicy> {
      const row = calendarKnown(await queries.insertPolicy(db, input, L.policies));
      if (row === 'too-many') throw new ValidationError(S.tooManyPolicies(L.policies));
      return reapplied(presentPolicy(row));
    },
    async updatePolicy(id: number, input: PolicyBody): Promise<SlaPolicy> {
      return reapplied(presentPolicy(found(calendarKnown(await queries.updatePolicy(db, id, input)), S.policyNotFound)));
    },
    async removePolicy(id: number): Promise<void> {
      if (!(await queries.deletePolicy(db, id))) throw new NotFoundError(S.policyNotFound);
      reapply?.request();
    },
    async reorderPolicies(ids: readonly number[]): Promise<SlaPolicy[]> {
      if (!(await queries.reorderPolicies(db, ids))) throw new ValidationError(S.orderInvalid);
      return reapplied((await queries.listPolicies(db)).map(presentPolicy));
    },
  };
}

export type SlaSettingsService = ReturnType<typeof createSlaSettingsService>;
