import { defineConfig } from 'prisma/config';
import { PrismaPg } from '@prisma/adapter-pg';
import { pgConnectionFields } from './src/server/db/url';

// Prisma 6.19 with its JavaScript schema engine: migrations run offline (no native binary
// download). The adapter gets discrete connection fields, not a URL: its shadow-database pool
// spreads the config and a connection string would override the database name.
export default defineConfig({
  experimental: { adapter: true },
  engine: 'js',
  adapter: async () => new PrismaPg(pgConnectionFields(process.env.DATABASE_URL!)),
  schema: 'prisma/schema',
  migrations: { path: 'prisma/migrations' },
});
