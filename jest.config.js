/** Jest runs the TypeScript sources as ES modules (ts-jest, transpile only: `tsc` type-checks first). */
export default {
  testEnvironment: 'node',
  extensionsToTreatAsEsm: ['.ts'],
  transform: { '^.+\\.ts$': ['ts-jest', { useESM: true }] },
  testMatch: ['<rootDir>/test/**/*.test.ts'],
  reporters: ['default', '<rootDir>/test/support/summary-reporter.cjs'],
  testTimeout: 60_000,
};
