import type { Reporter, TestModule } from 'vitest/node';

/** Ends every run with one plain "Tests: N passed, N failed, N skipped" line that CI tools can read. */
export default class SummaryReporter implements Reporter {
  onTestRunEnd(testModules: ReadonlyArray<TestModule>) {
    const counts = { passed: 0, failed: 0, skipped: 0 };
    for (const module of testModules) {
      for (const test of module.children.allTests()) {
        const state = test.result().state;
        if (state === 'passed') counts.passed++;
        // A test that never ran because its suite's hook failed is a failure, not a skip.
        else if (state === 'failed' || test.parent.state() === 'failed') counts.failed++;
        else counts.skipped++;
      }
      if (module.state() === 'failed' && !module.children.size) counts.failed++;
    }
    process.stdout.write(`\nTests: ${counts.passed} passed, ${counts.failed} failed, ${counts.skipped} skipped\n`);
  }
}
