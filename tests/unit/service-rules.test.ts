import { describe, expect, it } from 'vitest';
import { DEFAULT_GREETING } from '../../src/shared/constants';
import { contactUsMessage, validateContactUs } from '../../src/shared/domain/contact-us-form';
import { defaultContactUs } from '../../src/shared/domain/contact-us';
import { fillGreeting } from '../../src/shared/domain/greeting';
import { infoText } from '../../src/shared/domain/info-messages';
import { canSeeRequest } from '../../src/shared/domain/queue-visibility';
import { applyRating } from '../../src/shared/domain/rating';
import { serviceTransition, type ServiceAction, type ServiceRole } from '../../src/shared/domain/service-states';
import { answerSla, canProposeSla, defaultSlaDueAt, slaColumn, slaProposalState } from '../../src/shared/domain/sla';

describe('conversation states and who moves them', () => {
  const go = (action: ServiceAction, state: number, roles: ServiceRole[], taken = true) => serviceTransition(action, { state, taken }, roles);

  it('a request waits (0), is taken (1), waits for a third party (2) and back, and is concluded (9999)', () => {
    expect(go('take', 0, ['attendant'], false)).toEqual({ ok: true, to: 1 });
    expect(go('wait', 1, ['attendant', 'responsible'])).toEqual({ ok: true, to: 2 });
    expect(go('resume', 2, ['attendant', 'responsible'])).toEqual({ ok: true, to: 1 });
    expect(go('conclude', 2, ['attendant', 'responsible'])).toEqual({ ok: true, to: 9999 });
    expect(go('conclude', 1, ['attendant', 'admin'])).toEqual({ ok: true, to: 9999 });
  });

  it('only a waiting request can be taken, and only by an attendant', () => {
    for (const state of [1, 2, 9999]) expect(go('take', state, ['attendant'])).toEqual({ ok: false, reason: 'wrongState' });
    expect(go('take', 0, ['customer'], false)).toEqual({ ok: false, reason: 'notAllowed' });
  });

  it('the customer leaves the queue only while waiting; attendants cannot do it for them', () => {
    expect(go('leaveQueue', 0, ['customer'], false)).toEqual({ ok: true, to: 9999 });
    expect(go('leaveQueue', 1, ['customer'])).toEqual({ ok: false, reason: 'wrongState' });
    expect(go('leaveQueue', 0, ['attendant', 'admin'], false)).toEqual({ ok: false, reason: 'notAllowed' });
  });

  it('reopening is only for the owner of an already taken request, and sets state 1', () => {
    expect(go('reopen', 9999, ['attendant', 'responsible'])).toEqual({ ok: true, to: 1 });
    expect(go('reopen', 9999, ['attendant', 'admin'])).toEqual({ ok: false, reason: 'notAllowed' });
    expect(go('reopen', 9999, ['customer'])).toEqual({ ok: false, reason: 'notAllowed' });
    expect(go('reopen', 9999, ['responsible'], false)).toEqual({ ok: false, reason: 'neverTaken' });
    expect(go('reopen', 1, ['responsible'])).toEqual({ ok: false, reason: 'wrongState' });
  });

  it('transfer puts a served request back into the queue; by the responsible person or an admin', () => {
    expect(go('transfer', 1, ['responsible'])).toEqual({ ok: true, to: 0 });
    expect(go('transfer', 2, ['admin'])).toEqual({ ok: true, to: 0 });
    expect(go('transfer', 1, ['attendant'])).toEqual({ ok: false, reason: 'notAllowed' });
    expect(go('transfer', 0, ['responsible'])).toEqual({ ok: false, reason: 'wrongState' });
    expect(go('transfer', 9999, ['admin'])).toEqual({ ok: false, reason: 'wrongState' });
  });

  it('plain attendants who are not responsible cannot conclude, wait or resume', () => {
    expect(go('conclude', 1, ['attendant'])).toEqual({ ok: false, reason: 'notAllowed' });
    expect(go('wait', 1, ['attendant', 'admin'])).toEqual({ ok: false, reason: 'notAllowed' });
    expect(go('conclude', 9999, ['responsible'])).toEqual({ ok: false, reason: 'wrongState' });
  });
});

describe('queue visibility', () => {
  const viewer = (groupIds: string[]) => ({ userId: 'u1', groupIds });

  it('an attendant with groups sees unrestricted requests and those sharing a group', () => {
    expect(canSeeRequest(viewer(['g1']), { groupIds: [], queueUserId: null })).toBe(true);
    expect(canSeeRequest(viewer(['g1', 'g2']), { groupIds: ['g2', 'g3'], queueUserId: null })).toBe(true);
    expect(canSeeRequest(viewer(['g1']), { groupIds: ['g3'], queueUserId: null })).toBe(false);
  });

  it('an attendant without groups sees only unrestricted requests', () => {
    expect(canSeeRequest(viewer([]), { groupIds: [], queueUserId: null })).toBe(true);
    expect(canSeeRequest(viewer([]), { groupIds: ['g1'], queueUserId: null })).toBe(false);
  });

  it('a request with userFila is shown only to that user, whatever the groups', () => {
    expect(canSeeRequest(viewer(['g1']), { groupIds: ['g1'], queueUserId: 'u2' })).toBe(false);
    expect(canSeeRequest(viewer([]), { groupIds: ['g1'], queueUserId: 'u1' })).toBe(true);
  });
});

describe('company rating', () => {
  it('starts as 5 over 1 rating and keeps the average rounded to 1 decimal', () => {
    expect(applyRating(null, 1)).toEqual({ total: 3, count: 2 });
    expect(applyRating({ total: 5, count: 1 }, 4)).toEqual({ total: 4.5, count: 2 });
    expect(applyRating({ total: 4.5, count: 2 }, 4)).toEqual({ total: 4.3, count: 3 });
    expect(applyRating({ total: 4.3, count: 3 }, 5)).toEqual({ total: 4.5, count: 4 });
  });

  it('takes only whole stars from 1 to 5', () => {
    for (const bad of [0, 6, 2.5, Number.NaN]) expect(() => applyRating(null, bad)).toThrow(RangeError);
  });
});

describe('greeting', () => {
  it('fills [nomecliente] and [nomeempresa], every occurrence, in any case', () => {
    expect(fillGreeting(DEFAULT_GREETING, { customerName: 'Maria', companyName: 'Acme' })).toBe(
      'Olá Maria, bem vindo (a) ao canal de atendimento da empresa Acme. Aguarde um momento que logo iremos atender você!',
    );
    expect(fillGreeting('[NomeCliente] / [nomecliente] @ [nomeempresa]', { customerName: ' Jo ', companyName: 'X$1' })).toBe('Jo / Jo @ X$1');
  });

  it('uses the default greeting when the company has none', () => {
    expect(fillGreeting('  ', { customerName: 'Ana', companyName: 'B' })).toContain('Olá Ana, bem vindo (a)');
  });

  it('is posted as an info message whose text is the greeting itself', () => {
    expect(infoText({ info: 'greeting', params: { text: 'Olá!' } })).toBe('Olá!');
    expect(infoText({ info: 'reopened', params: { name: 'Ana' } })).toBe('Service reopened');
  });
});

describe('SLA proposal', () => {
  const now = new Date('2026-11-23T12:00:00Z');
  const later = new Date('2026-11-25T12:00:00Z');
  const base = { state: 1, slaProposalOpen: false, slaOfferDate: null, slaDueAt: null, slaAccepted: false };

  it('opens with an offer date in the future, one at a time, not on a concluded request', () => {
    expect(canProposeSla(base, later, now)).toBeNull();
    expect(canProposeSla({ ...base, slaProposalOpen: true }, later, now)).toBe('alreadyOpen');
    expect(canProposeSla({ ...base, state: 9999 }, later, now)).toBe('concluded');
    expect(canProposeSla(base, now, now)).toBe('inThePast');
  });

  it('accepting closes it and confirms the date; declining closes it and keeps the old date', () => {
    const open = { ...base, slaProposalOpen: true, slaOfferDate: later };
    expect(slaProposalState(open)).toBe('open');
    expect(answerSla(open, 'accepted')).toEqual({ slaProposalOpen: false, slaAccepted: true, slaDueAt: later });
    expect(answerSla({ ...open, slaDueAt: now }, 'declined')).toEqual({ slaProposalOpen: false, slaAccepted: false, slaDueAt: now });
    expect(slaProposalState({ slaProposalOpen: false, slaOfferDate: later, slaAccepted: true })).toBe('accepted');
    expect(slaProposalState({ slaProposalOpen: false, slaOfferDate: later, slaAccepted: false })).toBe('declined');
    expect(slaProposalState(base)).toBe('none');
  });

  it('sorts requests into the board columns by state and due date', () => {
    expect(slaColumn({ ...base, state: 9999, slaDueAt: later }, now)).toBe('concluded');
    expect(slaColumn({ ...base, slaProposalOpen: true }, now)).toBe('proposal');
    expect(slaColumn(base, now)).toBe('noDate');
    expect(slaColumn({ ...base, slaDueAt: new Date('2026-11-23T11:00:00Z') }, now)).toBe('overdue');
    expect(slaColumn({ ...base, slaDueAt: new Date('2026-11-24T06:00:00Z') }, now)).toBe('dueToday');
    expect(slaColumn({ ...base, slaDueAt: later.toISOString() }, now)).toBe('onTime');
  });

  it('gives requests of an SLA queue a default due date SLAtempoAtendimento days ahead', () => {
    expect(defaultSlaDueAt(now, 1)).toEqual(new Date('2026-11-24T12:00:00Z'));
    expect(defaultSlaDueAt(now, 3)).toEqual(new Date('2026-11-26T12:00:00Z'));
  });
});

describe('Contact Us form', () => {
  const { fields } = defaultContactUs('Acme');
  const extras = [{ tag: 'plan', name: 'Plano', multipleChoice: true, options: ['Básico', 'Pro'] }];
  const good = { name: ' Maria ', email: 'maria@example.com', message: 'Preciso de ajuda', plan: 'Pro' };

  it('accepts a complete form, trimmed, and writes it as one message', () => {
    const result = validateContactUs(fields, extras, good);
    expect(result).toEqual({ ok: true, values: { name: 'Maria', email: 'maria@example.com', message: 'Preciso de ajuda', plan: 'Pro' } });
    expect(contactUsMessage(fields, extras, (result as { values: Record<string, string> }).values)).toBe(
      'Nome: Maria\nE-mail: maria@example.com\nMensagem: Preciso de ajuda\nPlano: Pro',
    );
  });

  it('names each failing field: required, e-mail, sizes, options', () => {
    expect(validateContactUs(fields, extras, { ...good, name: 'M', email: 'not-an-email', message: '', plan: 'Gold' })).toEqual({
      ok: false,
      errors: { name: 'tooShort', email: 'email', message: 'required', plan: 'notAnOption' },
    });
    expect(validateContactUs(fields, extras, { ...good, message: 'x'.repeat(1501) })).toEqual({ ok: false, errors: { message: 'tooLong' } });
  });

  it('does not require read-only fields, which the page fills in', () => {
    const readOnlyEmail = fields.map((f) => (f.key === 'email' ? { ...f, readOnly: true } : f));
    expect(validateContactUs(readOnlyEmail, [], { name: 'Maria', message: 'Oi' })).toEqual({ ok: true, values: { name: 'Maria', message: 'Oi' } });
  });
});
