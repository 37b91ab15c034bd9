import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    projects: [
      { test: { name: 'unit', include: ['src/**/*.test.ts'], environment: 'node' } },
      {
        test: {
          name: 'api-sqlite',
          include: ['test/api/**/*.test.ts'],
          env: { TEST_BACKEND: 'sqlite', LOG_LEVEL: 'silent' },
          testTimeout: 20_000,
          hookTimeout: 30_000,
        },
      },
    ],
  },
});
