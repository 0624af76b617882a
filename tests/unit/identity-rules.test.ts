import { describe, expect, it } from 'vitest';
import { formatCountdown, resendWaitMs } from '../../src/shared/domain/countdown';
import { maskBrazilianPhone, normalizePhone } from '../../src/shared/domain/phone';
import { detectImageType } from '../../src/shared/domain/images';
import { compareVersions, needsUpdate } from '../../src/shared/domain/version';

describe('Brazilian phone mask', () => {
  it.each([
    ['11', '(11'],
    ['1133', '(11) 33'],
    ['113322445', '(11) 3322-445'],
    ['1133224455', '(11) 3322-4455'],
    ['11987654321', '(11) 98765-4321'],
    ['(11) 98765-43210', '(11) 98765-4321'],
  ])('masks %s as %s', (input, masked) => expect(maskBrazilianPhone(input)).toBe(masked));

  it('stores digits with the country code', () => {
    expect(normalizePhone('(11) 98765-4321')).toBe('5511987654321');
    expect(normalizePhone('1133224455')).toBe('551133224455');
    expect(normalizePhone('+1 415 555 0100')).toBe('14155550100');
    expect(normalizePhone('123')).toBeNull();
  });
});

describe('SMS resend countdown', () => {
  it('waits 90 s times the attempt number, shown as mm:ss down to 00:00', () => {
    expect(resendWaitMs(1)).toBe(90_000);
    expect(resendWaitMs(3)).toBe(270_000);
    expect(formatCountdown(90_000)).toBe('01:30');
    expect(formatCountdown(1)).toBe('00:01');
    expect(formatCountdown(-5)).toBe('00:00');
  });
});

describe('versions', () => {
  it('compares dotted numbers, not strings', () => {
    expect(compareVersions('2509.21.01', '2509.21.1')).toBe(0);
    expect(compareVersions('1.10.0', '1.9.9')).toBeGreaterThan(0);
    expect(needsUpdate('2509.21.01', '2510.1.0')).toBe(true);
    expect(needsUpdate('2509.21.01', '0.0.0')).toBe(false);
  });
});

describe('image detection', () => {
  it('recognises images by their bytes', () => {
    expect(detectImageType(Uint8Array.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]))).toBe('image/png');
    expect(detectImageType(Uint8Array.from([0xff, 0xd8, 0xff, 0xe0]))).toBe('image/jpeg');
    expect(detectImageType(new TextEncoder().encode('<svg onload=alert(1)>'))).toBeNull();
  });
});
