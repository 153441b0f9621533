import type { core } from 'zod';
import { MESSAGES } from './messages.js';

const V = MESSAGES.validation;

/** What an input of a kind must be, alone and in a list. */
const KINDS: Record<string, [one: string, many: string]> = {
  string: ['text', 'texts'],
  number: ['a number', 'numbers'],
  int: ['a whole number', 'whole numbers'],
  boolean: ['true or false', 'true or false values'],
  array: ['a list', 'lists'],
  object: ['an object', 'objects'],
  record: ['an object', 'objects'],
  date: ['a date', 'dates'],
};

/** A field's name as a person reads it: `assignedAgentId` → "Assigned agent id"; `PORT` stays. */
export function fieldLabel(path: readonly PropertyKey[]): string {
  const key = [...path].reverse().find((part): part is string => typeof part === 'string');
  if (key === undefined) return 'The request';
  if (/^[A-Z0-9_]+$/.test(key)) return key;
  const words = key
    .replace(/_/g, ' ')
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .toLowerCase()
    .trim();
  return words.charAt(0).toUpperCase() + words.slice(1);
}

const amountOf = (origin: string, bound: number | bigint) => {
  const n = Number(bound);
  if (origin === 'string') return `${n} character${n === 1 ? '' : 's'} long`;
  if (origin === 'array' || origin === 'set') return `${n} item${n === 1 ? '' : 's'}`;
  return String(bound);
};

/**
 * The message of an input a schema gave none for, installed as zod's fallback (zod.ts) so zod's own
 * English ("Invalid input: expected string, received undefined") never reaches a person: every rule
 * with a text of its own keeps it; this only names the field and says what it must be.
 */
export function plainIssueMessage(issue: core.$ZodRawIssue): string {
  const path = issue.path ?? [];
  const label = fieldLabel(path);
  // An entry of a list is reported as the list's: "Ids must be a list of whole numbers".
  const inList = typeof path.at(-1) === 'number';
  // A list's name is plural ("Tags are required"); zod says so by what it expected.
  const namesList = 'expected' in issue && issue.expected === 'array';
  if (issue.input === undefined && !inList && (issue.code === 'invalid_type' || issue.code === 'invalid_value'))
    return V.fieldRequired(label, namesList);
  switch (issue.code) {
    case 'invalid_type': {
      // A query parameter given twice arrives as a list.
      if (Array.isArray(issue.input) && issue.expected !== 'array' && !inList) return V.fieldNotList(label);
      const kind = KINDS[issue.expected];
      if (!kind) return V.fieldInvalid(label, namesList);
      return inList ? V.fieldListOf(label, kind[1]) : V.fieldMustBe(label, kind[0]);
    }
    case 'invalid_value':
      return V.fieldOneOf(label, issue.values.map(String).join(', '));
    case 'too_small':
      return V.fieldAtLeast(label, amountOf(issue.origin, issue.minimum));
    case 'too_big':
      return V.fieldAtMost(label, amountOf(issue.origin, issue.maximum));
    default:
      return V.fieldInvalid(label);
  }
}
