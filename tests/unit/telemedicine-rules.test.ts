import { describe, expect, it } from 'vitest';
import { BRAZILIAN_UFS, enrolmentId, globalDoctorTarget, estimatedWaitMs, servedCompanyIds, statusUpdate, DEFAULT_CONSULTATION_MS } from '../../src/shared/domain/telemedicine';

const now = new Date('2026-11-26T12:00:00Z');

describe('doctor enrolment rules', () => {
  it('knows the 27 Brazilian states and builds the crm|uf id', () => {
    expect(BRAZILIAN_UFS).toHaveLength(27);
    expect(new Set(BRAZILIAN_UFS).size).toBe(27);
    expect(BRAZILIAN_UFS[0]).toBe('AC');
    expect(BRAZILIAN_UFS.at(-1)).toBe('TO');
    expect(enrolmentId('12345', 'SP')).toBe('12345|SP');
  });

  it('sets lastUpdate on every move, blockedAt on BLOCKED and clears it when unblocked', () => {
    expect(statusUpdate('WAITING_APROVATION', 'APPROVED', now)).toEqual({ ok: true, data: { status: 'APPROVED', lastUpdate: now } });
    expect(statusUpdate('APPROVED', 'BLOCKED', now)).toEqual({ ok: true, data: { status: 'BLOCKED', lastUpdate: now, blockedAt: now } });
    expect(statusUpdate('BLOCKED', 'APPROVED', now)).toEqual({ ok: true, data: { status: 'APPROVED', lastUpdate: now, blockedAt: null } });
  });

  it('refuses a missing status and moves the rules do not allow', () => {
    expect(statusUpdate('WAITING_APROVATION', undefined, now)).toEqual({ ok: false, reason: 'missingStatus' });
    expect(statusUpdate('APPROVED', 'WAITING_APROVATION', now)).toEqual({ ok: false, reason: 'notAllowed' });
    expect(statusUpdate('APPROVED', 'APPROVED', now)).toEqual({ ok: false, reason: 'notAllowed' });
    expect(statusUpdate('BLOCKED', 'REFUSED', now)).toEqual({ ok: false, reason: 'notAllowed' });
  });
});

describe('the doctors queue', () => {
  it('estimates the wait from the doctors online and the recent consultations, unknown with nobody online', () => {
    expect(estimatedWaitMs(1, 2, 600_000)).toBe(0);
    expect(estimatedWaitMs(3, 2, 600_000)).toBe(600_000);
    expect(estimatedWaitMs(4, 2, 600_000)).toBe(1_200_000);
    expect(estimatedWaitMs(2, 1, null)).toBe(DEFAULT_CONSULTATION_MS);
    expect(estimatedWaitMs(5, 0, 600_000)).toBeNull();
  });

  it('lets a doctor serve their own company, and a global doctor every company that opted in', () => {
    const companies = [
      { companyId: 'a', enabled: true, acceptsGlobalDoctors: false },
      { companyId: 'b', enabled: true, acceptsGlobalDoctors: true },
      { companyId: 'c', enabled: false, acceptsGlobalDoctors: true },
    ];
    expect(servedCompanyIds({ companyId: 'a', global: false }, companies)).toEqual(['a']);
    expect(servedCompanyIds({ companyId: 'a', global: true }, companies)).toEqual(['a', 'b']);
    expect(servedCompanyIds({ companyId: 'c', global: false }, companies)).toEqual([]);
  });
});

describe('the route guard for a global doctor', () => {
  it('sends a global doctor home where a blocked or removed attendant goes to /{emp}/block', () => {
    expect(globalDoctorTarget('/acme/block', 'acme', true)).toBe('/');
    expect(globalDoctorTarget('/acme/block', 'acme', false)).toBe('/acme/block');
    expect(globalDoctorTarget('/acme/wait', 'acme', true)).toBe('/acme/wait');
    expect(globalDoctorTarget(null, 'acme', true)).toBeNull();
  });
});
