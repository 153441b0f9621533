import type { UserRef } from '@helpdesk/protocol';

/** The `@query` being typed right before the caret, if any: where it starts and what it says so far. */
export function mentionQueryAt(text: string, caret: number): { start: number; query: string } | undefined {
  const query = /(?:^|\s)@([^\s@]{0,40})$/.exec(text.slice(0, caret))?.[1];
  if (query === undefined) return undefined;
  return { start: caret - query.length - 1, query };
}

/** The staff whose name contains the query, case-insensitively, best (prefix) matches first. */
export function matchingStaff(staff: UserRef[], query: string, limit = 8): UserRef[] {
  const q = query.toLowerCase();
  const hits = staff.filter((s) => s.name.toLowerCase().includes(q));
  const prefix = (s: UserRef) => (s.name.toLowerCase().startsWith(q) ? 0 : 1);
  return hits.sort((a, b) => prefix(a) - prefix(b) || a.name.localeCompare(b.name)).slice(0, limit);
}

/** Replaces the `@query` at `start` with `@Name `; returns the new text and caret. */
export function insertMention(text: string, start: number, caret: number, name: string): { text: string; caret: number } {
  const inserted = `@${name} `;
  return { text: text.slice(0, start) + inserted + text.slice(caret), caret: start + inserted.length };
}

/** The picked people still named in the text: deleting "@Name" takes the mention back. */
export const mentionedIds = (text: string, picked: UserRef[]): number[] => [
  ...new Set(picked.filter((p) => text.includes(`@${p.name}`)).map((p) => p.id)),
];
