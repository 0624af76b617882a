/**
 * The scale-out and limit settings: which Socket.IO adapter a configuration selects, the limits'
 * defaults, and the check that refuses unstorable characters before any query runs.
 */
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../src/server/config';
import { findUnstorable } from '../../src/server/trpc';

describe('scale-out and limit settings', () => {
  it('selects the in-memory adapter by default, Redis when REDIS_URL is set, PostgreSQL when asked', () => {
    expect(loadConfig({}).realtime.adapter).toEqual({ kind: 'memory' });
    expect(loadConfig({ REDIS_URL: 'redis://cache:6379' }).realtime.adapter).toEqual({ kind: 'redis', url: 'redis://cache:6379', key: 'atende' });
    expect(loadConfig({ SOCKET_ADAPTER: 'postgres', SOCKET_ADAPTER_KEY: 'prod-1' }).realtime.adapter).toEqual({ kind: 'postgres', key: 'prod-1' });
    expect(loadConfig({ SOCKET_ADAPTER: 'memory', REDIS_URL: 'redis://cache:6379' }).realtime.adapter).toEqual({ kind: 'memory' });
    expect(() => loadConfig({ SOCKET_ADAPTER: 'redis' })).toThrow(/REDIS_URL: is required when SOCKET_ADAPTER=redis/);
    expect(() => loadConfig({ SOCKET_ADAPTER: 'kafka' })).toThrow(ConfigError);
  });

  it('has bounded defaults for every limit, and refuses nonsense', () => {
    const config = loadConfig({});
    expect(config.maxRequestBytes).toBe(1_000_000);
    expect(config.maxUploadBytes).toBe(25 * 1024 * 1024);
    expect(config.realtime).toMatchObject({ maxSocketsPerUser: 20, eventsPerSecond: 50 });
    expect(() => loadConfig({ MAX_SOCKETS_PER_USER: '0' })).toThrow(ConfigError);
    expect(() => loadConfig({ SOCKET_EVENTS_PER_SECOND: '-5' })).toThrow(ConfigError);
    expect(() => loadConfig({ MAX_REQUEST_BYTES: '10' })).toThrow(ConfigError);
  });

  it('finds U+0000 and lone surrogates anywhere in an input, and lets every other character through', () => {
    expect(findUnstorable({ text: 'olá 🙂 <img> \'; DROP', n: 1, list: ['a', { b: 'c' }] })).toBeNull();
    expect(findUnstorable({ text: 'a\u0000b' })).toBe('text');
    expect(findUnstorable({ list: ['ok', { name: '\uD800' }] })).toBe('list.1.name');
    expect(findUnstorable({ ['k\u0000']: 1 })).toBe('k\u0000');
    expect(findUnstorable('\uDC00x')).toBe('(input)');
    expect(findUnstorable('\uD83D\uDE42')).toBeNull();
  });
});
