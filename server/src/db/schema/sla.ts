import { boolean, index, integer, jsonb, pgTable, text, timestamp } from 'drizzle-orm/pg-core';
import type { Holiday, OpeningInterval, Priority, SlaTarget } from '@helpdesk/protocol';

/** Business calendars: opening hours in a time zone, and holidays (docs/decisions.md#service-levels). */
export const slaCalendars = pgTable('sla_calendars', {
  id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
  name: text('name').notNull(),
  timeZone: text('time_zone').notNull(),
  hours: jsonb('hours').$type<OpeningInterval[]>().notNull(),
  holidays: jsonb('holidays').$type<Holiday[]>().notNull(),
  createdAt: timestamp('created_at', { withTimezone: true }).defaultNow().notNull(),
  updatedAt: timestamp('updated_at', { withTimezone: true }).defaultNow().notNull(),
});

/**
 * SLA policies, tried in `position` order; a calendar in use cannot be deleted (restrict). A deleted
 * policy keeps its row (`deleted_at`): the tickets it timed keep its id, and no statement has to touch
 * every one of them (docs/decisions.md#service-levels).
 */
export const slaPolicies = pgTable(
  'sla_policies',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    name: text('name').notNull(),
    position: integer('position').notNull(),
    calendarId: integer('calendar_id').references(() => slaCalendars.id, { onDelete: 'restrict' }),
    requesterDomains: text('requester_domains').array().notNull(),
    targets: jsonb('targets').$type<Record<Priority, SlaTarget>>().notNull(),
    warnBeforeMinutes: integer('warn_before_minutes').notNull(),
    active: boolean('active').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).defaultNow().notNull(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).defaultNow().notNull(),
    deletedAt: timestamp('deleted_at', { withTimezone: true }),
  },
  (t) => [index('sla_policies_calendar_idx').on(t.calendarId)],
);
