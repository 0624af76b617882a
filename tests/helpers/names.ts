/** Databases the test run creates and drops: one per test file. */
export const TEST_DB_PREFIX = 'atende_test_';
