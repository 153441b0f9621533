import { z } from '../zod.js';
import { PRIORITIES, type Priority } from '../enums.js';
import { boundedText, rowIdField } from '../fields.js';
import { LIMITS } from '../limits.js';
import { MESSAGES } from '../messages.js';

const S = MESSAGES.sla;
const L = LIMITS.sla;

// The ticket's SLA shapes live apart from the schemas, so the client's first load (its ticket cache)
// takes them without zod.
export * from './slaState.js';

/** "HH:MM" as minutes after midnight; `24:00` only where an interval ends. The server's business time reads hours with it too. */
export const clockMinutes = (hhmm: string): number => Number(hhmm.slice(0, 2)) * 60 + Number(hhmm.slice(3, 5));
const TIME = /^(?:[01]\d|2[0-3]):[0-5]\d$/;

/** Zones already accepted: asking Intl costs tens of microseconds, and every report names one. */
const knownZones = new Set<string>();
const KNOWN_ZONES_MAX = 2_000;

/** An IANA zone name the runtime knows; offsets like "+01:00" are not zones (they have no DST rules). */
export function isTimeZone(value: string): boolean {
  if (knownZones.has(value)) return true;
  if (!/^[A-Za-z][A-Za-z0-9_+-]*(?:\/[A-Za-z0-9_+-]+)*$/.test(value)) return false;
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: value });
  } catch {
    return false;
  }
  // Intl takes any letter case, so the names it accepts are many: the set starts over when full.
  if (knownZones.size >= KNOWN_ZONES_MAX) knownZones.clear();
  knownZones.add(value);
  return true;
}

const openingInterval = z.object(
  {
    day: z.number({ error: S.hoursInvalid }).int(S.hoursInvalid).min(0, S.hoursInvalid).max(6, S.hoursInvalid),
    start: z.string({ error: S.hoursInvalid }).regex(TIME, S.hoursInvalid),
    end: z.string({ error: S.hoursInvalid }).refine((end) => end === '24:00' || TIME.test(end), S.hoursInvalid),
  },
  { error: S.hoursInvalid },
);

const openingHours = z
  .array(openingInterval, { error: S.hoursRequired })
  .min(1, S.hoursRequired)
  .superRefine((hours, context) => {
    if (hours.some(({ start, end }) => clockMinutes(end) <= clockMinutes(start))) {
      context.addIssue({ code: 'custom', message: S.hoursInvalid });
      return;
    }
    for (let day = 0; day <= 6; day += 1) {
      const intervals = hours.filter((interval) => interval.day === day).sort((a, b) => clockMinutes(a.start) - clockMinutes(b.start));
      if (intervals.length > L.intervalsPerDay) context.addIssue({ code: 'custom', message: S.hoursPerDay(L.intervalsPerDay) });
      else if (intervals.some((interval, i) => i > 0 && clockMinutes(interval.start) < clockMinutes(intervals[i - 1]?.end ?? '00:00')))
        context.addIssue({ code: 'custom', message: S.hoursOverlap });
    }
  });

/** A real calendar date, so 2026-02-30 is refused rather than rolled into March. */
/** A real day of the calendar as YYYY-MM-DD (holidays, report ranges). */
export const isCalendarDate = (value: string): boolean => {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(value)) return false;
  const date = new Date(`${value}T00:00:00Z`);
  return !Number.isNaN(date.getTime()) && date.toISOString().startsWith(value);
};

const holiday = z.object(
  {
    date: z.string({ error: S.holidayDateInvalid }).refine(isCalendarDate, S.holidayDateInvalid),
    name: boundedText({
      required: S.holidayNameRequired,
      min: L.name.min,
      max: L.name.max,
      tooShort: S.holidayNameRequired,
      tooLong: S.holidayNameTooLong,
    }),
  },
  { error: S.holidayDateInvalid },
);

export const calendarBody = z.object({
  name: boundedText({
    required: S.calendarNameRequired,
    min: L.name.min,
    max: L.name.max,
    tooShort: S.calendarNameRequired,
    tooLong: S.calendarNameTooLong,
  }),
  timeZone: z.string({ error: S.timeZoneInvalid }).refine(isTimeZone, S.timeZoneInvalid),
  hours: openingHours,
  holidays: z.array(holiday, { error: S.holidayDateInvalid }).max(L.holidays, S.holidaysTooMany(L.holidays)).default([]),
});
export type CalendarBody = z.infer<typeof calendarBody>;

const targetMinutes = z
  .number({ error: S.targetInvalid(L.targetMinutes.max) })
  .int(S.targetInvalid(L.targetMinutes.max))
  .min(L.targetMinutes.min, S.targetInvalid(L.targetMinutes.max))
  .max(L.targetMinutes.max, S.targetInvalid(L.targetMinutes.max))
  .nullable()
  .default(null);

const slaTarget = z
  .object({ firstResponseMinutes: targetMinutes, resolutionMinutes: targetMinutes }, { error: S.targetInvalid(L.targetMinutes.max) })
  .refine(
    ({ firstResponseMinutes, resolutionMinutes }) =>
      firstResponseMinutes === null || resolutionMinutes === null || resolutionMinutes >= firstResponseMinutes,
    S.resolutionBeforeResponse,
  );

const noTarget = { firstResponseMinutes: null, resolutionMinutes: null };
const DOMAIN = /^(?=.{1,253}$)(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]{2,63}$/;

export const policyBody = z.object({
  name: boundedText({
    required: S.policyNameRequired,
    min: L.name.min,
    max: L.name.max,
    tooShort: S.policyNameRequired,
    tooLong: S.policyNameTooLong,
  }),
  calendarId: rowIdField(S.calendarIdInvalid).nullable().default(null),
  requesterDomains: z
    .array(
      z
        .string({ error: S.domainsInvalid })
        .trim()
        .toLowerCase()
        .transform((domain) => domain.replace(/^@/, ''))
        .refine((domain) => DOMAIN.test(domain), S.domainsInvalid),
      { error: S.domainsInvalid },
    )
    .max(L.requesterDomains, S.domainsTooMany(L.requesterDomains))
    .transform((domains) => [...new Set(domains)])
    .default([]),
  targets: z
    .object(
      Object.fromEntries(PRIORITIES.map((priority) => [priority, slaTarget.default(noTarget)])) as Record<
        Priority,
        z.ZodDefault<typeof slaTarget>
      >,
      { error: S.targetInvalid(L.targetMinutes.max) },
    )
    .strip(),
  warnBeforeMinutes: z
    .number({ error: S.warnInvalid(L.targetMinutes.max) })
    .int(S.warnInvalid(L.targetMinutes.max))
    .min(0, S.warnInvalid(L.targetMinutes.max))
    .max(L.targetMinutes.max, S.warnInvalid(L.targetMinutes.max))
    .default(L.warnBeforeMinutes),
  active: z.boolean({ error: S.activeInvalid }).default(true),
});
export type PolicyBody = z.infer<typeof policyBody>;

export const policyOrderBody = z.object({
  ids: z
    .array(rowIdField(S.orderInvalid), { error: S.orderInvalid })
    .max(L.policies, S.orderInvalid)
    .refine((ids) => new Set(ids).size === ids.length, S.orderInvalid),
});
