/**
 * The doors' settings (issue 12) and their pure helpers: defaults, what each setting turns into,
 * the refusal of nonsense, the JSON depth scan and the path scrubbing of public health answers.
 */
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../src/server/config';
import { jsonDepthExceeds, withoutPaths } from '../../src/server/doors';
import { UserRateLimiter } from '../../src/server/realtime';

describe('doors settings', () => {
  it('trusts no proxy, allows only PUBLIC_URL by default, and has bounded rates', () => {
    const config = loadConfig({ PUBLIC_URL: 'https://chat.example.com/app' });
    expect(config.http).toEqual({ trustProxy: false, allowedOrigins: ['https://chat.example.com'], maxBatch: 50 });
    expect(config.rates).toEqual({ conversationsPerHour: 300, invitesPerHour: 100, joinRequestsPerHour: 30, typingPerSecond: 5, presencePerMinute: 30 });
  });

  it('reads the lists, and refuses what is not one', () => {
    const config = loadConfig({ TRUST_PROXY: ' 10.0.0.1 , loopback,172.16.0.0/12', ALLOWED_ORIGINS: 'https://a.example.com, http://b.example.com:8080/' });
    expect(config.http.trustProxy).toBe('10.0.0.1, loopback, 172.16.0.0/12');
    expect(config.http.allowedOrigins).toEqual(['http://localhost:3000', 'https://a.example.com', 'http://b.example.com:8080']);
    expect(() => loadConfig({ ALLOWED_ORIGINS: 'not an origin' })).toThrow(/ALLOWED_ORIGINS/);
    expect(() => loadConfig({ ALLOWED_ORIGINS: 'ftp://files.example.com' })).toThrow(ConfigError);
    expect(() => loadConfig({ TRUST_PROXY: 'everyone!' })).toThrow(/TRUST_PROXY/);
    expect(() => loadConfig({ TRPC_MAX_BATCH: '5' })).toThrow(ConfigError);
    expect(() => loadConfig({ RATE_CONVERSATIONS_PER_HOUR: '0' })).toThrow(ConfigError);
  });
});

describe('door helpers', () => {
  it('measures nesting outside strings only', () => {
    expect(jsonDepthExceeds('{"a":[1,{"b":[]}]}', 4)).toBe(false);
    expect(jsonDepthExceeds('{"a":[1,{"b":[]}]}', 3)).toBe(true);
    expect(jsonDepthExceeds('{"text":"[[[[[[{{{{ \\" [[[["}', 1)).toBe(false);
    expect(jsonDepthExceeds('['.repeat(1_000_000), 64)).toBe(true);
  });

  it('takes file-system paths and addresses out of a text, and keeps the sentence', () => {
    expect(withoutPaths('MEDIASOUP_WORKER_BIN is set to /opt/secret/bin/worker but no executable file is there')).toBe(
      'MEDIASOUP_WORKER_BIN is set to [path] but no executable file is there',
    );
    expect(withoutPaths("ENOENT: no such file or directory, open '/var/lib/atende/files/x'")).toBe("ENOENT: no such file or directory, open '[path]'");
    expect(withoutPaths('looked at C:\\atende\\worker.exe, ./node_modules/mediasoup/worker')).toBe('looked at [path], [path]');
    expect(withoutPaths('connect ECONNREFUSED http://10.0.0.5:9000/bucket')).toBe('connect ECONNREFUSED [address]');
    expect(withoutPaths('calls are disabled (MEDIASOUP_NUM_WORKERS=0)')).toBe('calls are disabled (MEDIASOUP_NUM_WORKERS=0)');
  });

  it('limits a person, not a socket: one bucket per user, refilled over time', () => {
    const limiter = new UserRateLimiter(2, 1000);
    const t = 1_000_000;
    const taken = Array.from({ length: 6 }, () => limiter.take('ana', t));
    expect(taken).toEqual([true, true, true, true, false, false]);
    expect(limiter.take('bia', t)).toBe(true);
    expect(limiter.take('ana', t + 500)).toBe(true);
    expect(limiter.take('ana', t + 500)).toBe(false);
  });
});
