import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../src/server/config';
import { domainSchema } from '../../src/shared/schemas/company';

describe('configuration', () => {
  it('runs on embedded defaults when nothing is configured', () => {
    const config = loadConfig({});
    expect(config.port).toBe(3000);
    expect(config.database).toEqual({ kind: 'embedded', dir: path.resolve('.data/postgres'), port: 54329 });
    expect(config.storage).toEqual({ kind: 'local', dir: path.resolve('.data/files') });
    expect(config.publicUrl).toBe('http://localhost:3000');
  });

  it('reads the new-company bonus as a number, 0 by default, and refuses a negative one', () => {
    expect(loadConfig({}).newCompanyBonus).toBe(0);
    expect(loadConfig({ NEW_COMPANY_BONUS: '12.5' }).newCompanyBonus).toBe(12.5);
    expect(() => loadConfig({ NEW_COMPANY_BONUS: '-1' })).toThrow(ConfigError);
  });

  it('uses PostgreSQL and MinIO when they are configured', () => {
    const config = loadConfig({
      DATABASE_URL: 'postgresql://u:p@db:5432/atende',
      S3_ENDPOINT: 'http://minio:9000',
      S3_ACCESS_KEY: 'k',
      S3_SECRET_KEY: 's',
      S3_BUCKET: 'files',
    });
    expect(config.database).toEqual({ kind: 'external', url: 'postgresql://u:p@db:5432/atende' });
    expect(config.storage).toMatchObject({ kind: 'minio', endpoint: 'http://minio:9000', bucket: 'files' });
  });

  it.each([
    [{ PORT: 'eighty' }, /PORT/],
    [{ DATABASE_URL: 'not a url' }, /DATABASE_URL/],
    [{ S3_ENDPOINT: 'http://minio:9000' }, /S3_ACCESS_KEY: is required when S3_ENDPOINT is set/],
    [{ RTC_MIN_PORT: '50000', RTC_MAX_PORT: '40000' }, /RTC_MIN_PORT: must not be greater than RTC_MAX_PORT/],
    [{ LOG_LEVEL: 'loud' }, /LOG_LEVEL/],
  ])('refuses %j with a message naming the variable', (env, message) => {
    expect(() => loadConfig(env)).toThrow(ConfigError);
    expect(() => loadConfig(env)).toThrow(message);
  });

  it('treats empty variables as unset', () => {
    expect(loadConfig({ DATABASE_URL: '', S3_ENDPOINT: '' }).database.kind).toBe('embedded');
  });
});

describe('company domain', () => {
  it.each(['abc', 'acme2026', 'a1b2c3d4e5f6g7h'])('accepts %s', (d) => expect(domainSchema.safeParse(d).success).toBe(true));
  it.each(['ab', 'Acme', 'acme corp', 'acme-corp', 'a1b2c3d4e5f6g7h8', ''])('refuses %j', (d) =>
    expect(domainSchema.safeParse(d).success).toBe(false),
  );
});
