import { describe, expect, it } from 'vitest';
import { announcedAddress } from '../../src/server/media/announce';

const eth = (address: string, internal = false) => ({ address, internal, family: 'IPv4' as const, netmask: '255.255.255.0', mac: '00:00:00:00:00:00', cidr: null });
const interfaces = { lo: [eth('127.0.0.1', true)], eth0: [eth('10.1.2.3')] };

describe('the address calls announce to browsers', () => {
  it('is the configured one when RTC_ANNOUNCED_IP is set', () => {
    expect(announcedAddress({ listenIp: '0.0.0.0', announcedIp: '203.0.113.7', publicUrl: 'https://chat.example.com' }, interfaces)).toEqual({ ip: '203.0.113.7', why: 'configured' });
  });
  it('is not needed when the server listens on a specific address', () => {
    expect(announcedAddress({ listenIp: '10.1.2.3', announcedIp: undefined, publicUrl: 'https://chat.example.com' }, interfaces).ip).toBeUndefined();
  });
  it('is loopback for a local PUBLIC_URL (npm start on a laptop), never the wildcard', () => {
    for (const publicUrl of ['http://localhost:3000', 'http://127.0.0.1:3000', 'http://app.localhost']) {
      expect(announcedAddress({ listenIp: '0.0.0.0', announcedIp: undefined, publicUrl }, interfaces)).toEqual({ ip: '127.0.0.1', why: 'local-public-url' });
    }
  });
  it('is the first non-internal IPv4 for a public name', () => {
    expect(announcedAddress({ listenIp: '0.0.0.0', announcedIp: undefined, publicUrl: 'https://chat.example.com' }, interfaces)).toEqual({ ip: '10.1.2.3', why: 'first-interface' });
  });
  it('falls back to loopback on a machine with no external interface', () => {
    expect(announcedAddress({ listenIp: '::', announcedIp: undefined, publicUrl: 'https://chat.example.com' }, { lo: [eth('127.0.0.1', true)] })).toEqual({ ip: '127.0.0.1', why: 'no-interface' });
  });
});
