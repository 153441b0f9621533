/** The scale bench's tables: one per cell as it is measured, the whole matrix at the end, and the worst p95. */
import type { Run } from './scaleLoad.js';
import type { Call } from './scaleQuestions.js';
import { ms } from './scaleSettings.js';
import { markdownTable } from './support.js';

export interface CellResult {
  /** e.g. "memo off, 2 processes, 10 writes/s" */
  label: string;
  /** The floor's slices together: one just before each call. */
  floor: Run;
  /** `floor`: the floor's slice measured just before the call, which its share is of. */
  calls: { call: Call; run: Run; floor: Run; writesPerSecond: number }[];
  writes: { asked: number; reached: number; failed: number };
  /** Seconds some task on the machine waited for a CPU, per second of the cell (Linux PSI); others share it. */
  cpuWait?: number;
  /** The same for the disk: what the questions read was not in memory. */
  ioWait?: number;
}

const rate = (v: number) => (v < 10 ? v.toFixed(1) : v.toFixed(0));
const pct = (v: number) => (v < 0.1 ? `${(v * 100).toFixed(1)} %` : `${(v * 100).toFixed(0)} %`);
const refusedOf = (run: Run) =>
  run.refused.size === 0 ? '' : [...run.refused].map(([status, n]) => `${pct(n / run.n)} ${status === 0 ? 'timeout' : status}`).join(', ');

/** A cell's figures: per call p50/p95/p99, req/s and its share of the floor's req/s in the same cell. */
export function cellTable(cell: CellResult): string {
  const rows = cell.calls.map(({ call, run, floor, writesPerSecond }) => [
    call.name,
    String(run.n),
    ms(run.p50),
    ms(run.p95),
    ms(run.p99),
    rate(run.rps),
    pct(run.rps / floor.rps),
    refusedOf(run),
    pct(run.repeated),
    String(Math.round(run.bytes)),
    rate(writesPerSecond),
  ]);
  rows.push([
    'bare Koa floor (list bytes)',
    String(cell.floor.n),
    ms(cell.floor.p50),
    ms(cell.floor.p95),
    ms(cell.floor.p99),
    rate(cell.floor.rps),
    '100 %',
    '',
    '',
    String(Math.round(cell.floor.bytes)),
    '',
  ]);
  return markdownTable(['call', 'n', 'p50 ms', 'p95 ms', 'p99 ms', 'req/s', 'of floor', 'refused', 'repeated', 'bytes', 'writes/s'], rows);
}

/** Every call by every cell: "p50 / p95 ms (share of the floor)". */
export function matrixTable(cells: CellResult[]): string {
  const names = [...new Set(cells.flatMap((c) => c.calls.map((x) => x.call.name)))];
  const rows = names.map((name) => [
    name,
    ...cells.map((cell) => {
      const m = cell.calls.find((x) => x.call.name === name);
      if (!m) return '-';
      const refused = m.run.refused.size ? ` ${pct([...m.run.refused.values()].reduce((a, b) => a + b, 0) / m.run.n)} refused` : '';
      return `${ms(m.run.p50)} / ${ms(m.run.p95)} (${pct(m.run.rps / m.floor.rps)})${refused}`;
    }),
  ]);
  rows.push([
    'writes/s reached',
    ...cells.map((c) => `${rate(c.writes.reached)} of ${c.writes.asked}${c.writes.failed ? `, ${c.writes.failed} failed` : ''}`),
  ]);
  rows.push(['floor req/s', ...cells.map((c) => rate(c.floor.rps))]);
  const perSecond = (v: number | undefined) => (v === undefined ? '-' : v.toFixed(2));
  rows.push(['CPU wait (s per s)', ...cells.map((c) => perSecond(c.cpuWait))]);
  rows.push(['disk wait (s per s)', ...cells.map((c) => perSecond(c.ioWait))]);
  return markdownTable(['call: p50 / p95 ms (of floor)', ...cells.map((c) => c.label)], rows);
}

export function worst(
  cells: CellResult[],
  filter: (call: Call) => boolean = () => true,
): { p95: number; name: string; cell: string } | undefined {
  return cells
    .flatMap((cell) => cell.calls.filter((c) => filter(c.call)).map((c) => ({ p95: c.run.p95, name: c.call.name, cell: cell.label })))
    .sort((a, b) => b.p95 - a.p95)[0];
}
