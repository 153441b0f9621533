import { describe, expect, it } from 'vitest';
import { listSort } from './tickets.js';

describe('listSort', () => {
  const bySla = { field: 'slaDueAt', descending: true } as const;

  it('reads sort=slaDueAt in id order when the filter leaves no clock running', () => {
    for (const status of ['pending', 'resolved', 'closed'] as const) {
      expect(listSort(bySla, { status })).toEqual({ field: 'id', descending: true });
    }
    expect(listSort({ field: 'slaDueAt', descending: false }, { sla: 'paused' })).toEqual({ field: 'id', descending: false });
  });

  it('keeps the deadline order wherever a clock may run, and every other sort as asked', () => {
    for (const filters of [{}, { status: 'open' as const }, { status: 'in_progress' as const }, { sla: 'breached' as const }]) {
      expect(listSort(bySla, filters)).toBe(bySla);
    }
    const byCreated = { field: 'createdAt', descending: true } as const;
    expect(listSort(byCreated, { status: 'resolved' })).toBe(byCreated);
  });
});
