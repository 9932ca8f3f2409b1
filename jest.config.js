/** Jest runs the TypeScript sources as ES modules (ts-jest, transpile only: `tsc` type-checks first). */
export default {
  testEnvironment: 'node',
  extensionsToTreatAsEsm: ['.ts'],
  transform: { '^.+\\.ts$': ['ts-jest', { useESM: true }] },
  // The typed client's sources import each other as `./x.js`, as published ES modules must.
  moduleNameMapper: { '^(\\.{1,2}/.*)\\.js$': '$1' },
  testMatch: ['<rootDir>/test/**/*.test.ts'],
  reporters: ['default', '<rootDir>/test/support/summary-reporter.cjs'],
  // The stacks test files share (test/support/shared-stacks.ts), started only when a file asks for one.
  globalSetup: '<rootDir>/test/support/jest-global-setup.mjs',
  globalTeardown: '<rootDir>/test/support/jest-global-teardown.mjs',
  // A bound on a test that hangs, not a speed check: stack tests run two at a time on a shared 2-core
  // machine and take up to three times their idle time there.
  testTimeout: 120_000,
  // Two test files at once on the two cores: much of a file's time is spent waiting on its stack's
  // processes (test/support/local-stack.ts gives each worker its own ports).
  maxWorkers: 2,
};
