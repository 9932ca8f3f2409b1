// Prints the plain closing line 'tests: N passed, N failed' that CI reads.
class SummaryReporter {
  onRunComplete(_contexts, results) {
    const skipped = results.numPendingTests + results.numTodoTests;
    const failedSuites = results.numFailedTestSuites - 0;
    console.log(
      `\ntests: ${results.numPassedTests} passed, ${results.numFailedTests + (results.numRuntimeErrorTestSuites || 0)} failed${skipped ? `, ${skipped} skipped` : ''}`,
    );
    if (failedSuites > 0) console.log(`(${failedSuites} test suite(s) failed)`);
  }
}
module.exports = SummaryReporter;
