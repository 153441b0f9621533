import type { FigureDeltas, FigureKeys, TotalCounter } from './reconcile.js';

/** span 720 is the UTC calendar month starting at `at`, whatever its number of hours. */
export const MONTH_SPAN = 720;
/** span 168 is the UTC ISO week (Monday first) starting at `at` (migration 0042). */
export const WEEK_SPAN = 168;
/** span 1: the UTC hour starting at `at`; 24: the UTC day; WEEK_SPAN: the UTC week; MONTH_SPAN: the UTC month. */
export const SPANS = [1, 24, WEEK_SPAN, MONTH_SPAN] as const;
const HOUR_MS = 3_600_000;
/** The epoch fell on a Thursday: weeks start four days after it, and every seven days from there. */
const MONDAY_MS = 4 * 24 * HOUR_MS;

/** The start of the UTC hour, day, week or month holding the instant `ms`, as an instant. */
export function spanStartMs(ms: number, span: number): number {
  if (span === MONTH_SPAN) {
    const at = new Date(ms);
    return Date.UTC(at.getUTCFullYear(), at.getUTCMonth(), 1);
  }
  const length = span * HOUR_MS;
  const offset = span === WEEK_SPAN ? MONDAY_MS : 0;
  return Math.floor((ms - offset) / length) * length + offset;
}

/** The start of the UTC hour, day, week or month holding `at`. */
export const spanStart = (at: Date, span: number): Date => new Date(spanStartMs(at.getTime(), span));

/**
 * The 6 grouping sets a figure is written to: every key "all" (-1, '') or the ticket's own, but for
 * an assignee beside a priority or category alone. One person's figures are few rows an hour, so a
 * question about them under one of those reads their finest rows (db/queries/reports.ts#groupOf);
 * the two sets left out held as many rows as the finest (docs/decisions.md#reports-written-with-the-change).
 */
export function groupingSets({ assigneeId, priority, category }: FigureKeys): FigureKeys[] {
  return [
    { assigneeId, priority, category },
    { assigneeId, priority: '', category: '' },
    { assigneeId: -1, priority, category },
    { assigneeId: -1, priority, category: '' },
    { assigneeId: -1, priority: '', category },
    { assigneeId: -1, priority: '', category: '' },
  ];
}

type Key = (string | number)[];
const compareKeys = (a: Key, b: Key): number => {
  for (const [i, x] of a.entries()) {
    const y = b[i] ?? '';
    if (x < y) return -1;
    if (x > y) return 1;
  }
  return 0;
};

/**
 * Sums deltas by key, drops the rows that sum to nothing and sorts the rest by key: every writer
 * upserts in the same order, so two of them sharing rows (the "all" sets) queue instead of deadlocking.
 */
function summed<R>(entries: Iterable<[Key, (row: R | undefined) => R]>, isZero: (row: R) => boolean): { key: Key; row: R }[] {
  const byKey = new Map<string, { key: Key; row: R }>();
  for (const [key, add] of entries) {
    const id = JSON.stringify(key);
    const found = byKey.get(id);
    byKey.set(id, { key, row: add(found?.row) });
  }
  return [...byKey.values()].filter(({ row }) => !isZero(row)).sort((a, b) => compareKeys(a.key, b.key));
}

export type TotalsRow = FigureKeys & { span: number; at: Date } & Partial<Record<TotalCounter, number>>;
export type DurationRow = FigureKeys & { span: number; at: Date; kind: number; bucket: number; n: number };
export type BacklogRow = FigureKeys & { createdHour: Date; status: string; n: number };

/** The rows to upsert into report_totals, report_durations and report_backlog, in key order. */
export function figureRows(deltas: FigureDeltas): { totals: TotalsRow[]; durations: DurationRow[]; backlog: BacklogRow[] } {
  const place = (keys: FigureKeys, at: Date) =>
    groupingSets(keys).flatMap((set) => SPANS.map((span) => ({ set, span, at: spanStart(at, span) })));
  const keyOf = (set: FigureKeys, ...rest: (string | number)[]): Key => [set.assigneeId, set.priority, set.category, ...rest];

  const totals = summed<TotalsRow>(
    deltas.totals.flatMap(({ keys, at, counter, delta }) =>
      place(keys, at).map(({ set, span, at: start }): [Key, (row: TotalsRow | undefined) => TotalsRow] => [
        keyOf(set, span, start.getTime()),
        (row) => ({ ...(row ?? { ...set, span, at: start }), [counter]: (row?.[counter] ?? 0) + delta }),
      ]),
    ),
    (row) => Object.entries(row).every(([name, value]) => !isCounter(name) || value === 0),
  );
  const durations = summed<DurationRow>(
    deltas.durations.flatMap(({ keys, at, kind, bucket, delta }) =>
      place(keys, at).map(({ set, span, at: start }): [Key, (row: DurationRow | undefined) => DurationRow] => [
        keyOf(set, span, start.getTime(), kind, bucket),
        (row) => ({ ...set, span, at: start, kind, bucket, n: (row?.n ?? 0) + delta }),
      ]),
    ),
    (row) => row.n === 0,
  );
  const backlog = summed<BacklogRow>(
    deltas.backlog.flatMap(({ keys, createdAt, status, delta }) => {
      const createdHour = spanStart(createdAt, 1);
      return groupingSets(keys).map((set): [Key, (row: BacklogRow | undefined) => BacklogRow] => [
        keyOf(set, createdHour.getTime(), status),
        (row) => ({ ...set, createdHour, status, n: (row?.n ?? 0) + delta }),
      ]);
    }),
    (row) => row.n === 0,
  );
  return { totals: totals.map((r) => r.row), durations: durations.map((r) => r.row), backlog: backlog.map((r) => r.row) };
}

const KEY_FIELDS = new Set(['assigneeId', 'priority', 'category', 'span', 'at']);
const isCounter = (name: string): boolean => !KEY_FIELDS.has(name);
