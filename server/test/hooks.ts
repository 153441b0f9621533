/**
 * What a suite's beforeAll assigns is typed as set, but afterAll still runs when beforeAll failed
 * part-way, and then it is not. Cleanups read it through this, so they skip what never started
 * instead of hiding the real failure behind a TypeError.
 */
export const ifSetUp = <T>(value: T): T | undefined => value;
