/**
 * Form templates over real HTTP: the name rule, private templates, editors against everyone else,
 * formsMembro, the plan flag, versions, the live listing and tenancy.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PLAN_FEATURE_MESSAGES } from '../../src/shared/domain/company';
import { FORM_MESSAGES } from '../../src/shared/schemas/forms';
import { record, serviceCompany, until, type ClientSocket } from '../helpers/service';
import { startTestServer, type TestServer } from '../helpers/server';

let server: TestServer;
const sockets: ClientSocket[] = [];
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => {
  for (const s of sockets) s.disconnect();
  await server?.close();
});

const fields = [
  { id: 'nome', type: 'shortText', label: 'Nome', required: true },
  { id: 'nasc', type: 'date', label: 'Nascimento' },
];

async function team() {
  const c = await serviceCompany(server, sockets);
  const ana = await c.attendant('Ana Criadora');
  const bia = await c.attendant('Bia Editora');
  const caio = await c.attendant('Caio Colega');
  const create = (who: typeof ana, name: string, extra: Record<string, unknown> = {}) => who.call('forms.create', { domain: c.domain, name, fields, ...extra });
  return { c, ana, bia, caio, create, d: c.domain };
}

describe('template names', () => {
  it('are unique per company, ignoring case and spaces; the same form keeps its own name; deleting frees it', async () => {
    const { ana, bia, create, d } = await team();
    const intake = await create(ana, 'Ficha de entrada');
    expect(intake).toMatchObject({ name: 'Ficha de entrada', version: 1, creatorId: ana.userId, isPrivate: false, editorIds: [] });
    expect((await bia.attempt('forms.create', { domain: d, name: '  FICHA DE ENTRADA ', fields })).error).toMatchObject({ code: 'CONFLICT', message: FORM_MESSAGES.nameTaken });
    expect(await bia.call('forms.nameFree', { domain: d, name: 'ficha de entrada' }, 'query')).toEqual({ free: false });
    expect(await bia.call('forms.nameFree', { domain: d, name: 'ficha de entrada', templateId: intake.id }, 'query')).toEqual({ free: true });

    // Saving the same name again (or with another case) on the same form is fine.
    expect(await ana.call('forms.update', { domain: d, templateId: intake.id, name: 'Ficha de Entrada' })).toMatchObject({ name: 'Ficha de Entrada' });
    const other = await create(bia, 'Checklist');
    expect((await bia.attempt('forms.update', { domain: d, templateId: other.id, name: 'ficha de entrada' })).error).toMatchObject({ code: 'CONFLICT' });

    await ana.call('forms.delete', { domain: d, templateId: intake.id });
    expect(await create(bia, 'Ficha de entrada')).toMatchObject({ name: 'Ficha de entrada' });
  });

  it('another company may use the same name', async () => {
    const a = await team();
    const b = await team();
    await a.create(a.ana, 'Consentimento');
    expect(await b.create(b.ana, 'Consentimento')).toMatchObject({ name: 'Consentimento' });
  });

  it('refuses a template with problems, naming the field', async () => {
    const { ana, d } = await team();
    const res = await ana.attempt('forms.create', { domain: d, name: 'Ruim', fields: [{ id: 'q', type: 'singleChoice', label: 'Escolha' }] });
    expect(res.error).toMatchObject({ code: 'BAD_REQUEST', message: 'fields.0: A choice needs at least one option' });
    expect(await server.db.formTemplate.count({ where: { name: 'Ruim' } })).toBe(0);
  });
});

describe('private templates', () => {
  it('are the creator alone: others cannot open, list, use or export them, and whoever had it open is told', async () => {
    const { c, ana, bia, caio, create, d } = await team();
    const t = await create(ana, 'Avaliação interna', { editorIds: [bia.userId] });
    const biaSocket = await bia.open();
    const anaSocket = await ana.open();
    const adminSocket = await c.admin.open();
    const lostBia = record(biaSocket, 'forms:lost');
    const lostAna = record(anaSocket, 'forms:lost');
    const lostAdmin = record(adminSocket, 'forms:lost');
    const changedAna = record(anaSocket, 'forms:changed');

    expect((await caio.attempt('forms.setPrivate', { domain: d, templateId: t.id, isPrivate: true })).error).toMatchObject({ code: 'FORBIDDEN', message: FORM_MESSAGES.notCreator });
    expect((await c.admin.attempt('forms.setPrivate', { domain: d, templateId: t.id, isPrivate: true })).error?.code).toBe('FORBIDDEN');
    await ana.call('forms.setPrivate', { domain: d, templateId: t.id, isPrivate: true });

    await until(() => lostBia.length === 1 && lostAdmin.length === 1 && changedAna.length === 1);
    expect(lostBia[0]).toEqual({ domain: d, templateId: t.id, reason: 'private' });
    expect(lostAna).toEqual([]);

    for (const who of [bia, caio, c.admin]) {
      expect((await who.attempt('forms.template', { domain: d, templateId: t.id }, 'query')).error).toMatchObject({ code: 'FORBIDDEN', message: FORM_MESSAGES.madePrivate });
      expect((await who.attempt('forms.update', { domain: d, templateId: t.id, name: 'x' })).error).toMatchObject({ code: 'FORBIDDEN', message: FORM_MESSAGES.madePrivate });
      expect((await who.attempt('forms.exportCsv', { domain: d, templateId: t.id }, 'query')).error?.code).toBe('FORBIDDEN');
      expect((await who.call('forms.templates', { domain: d }, 'query')).map((x: { id: string }) => x.id)).not.toContain(t.id);
      expect((await who.call('forms.usable', { domain: d }, 'query')).map((x: { id: string }) => x.id)).not.toContain(t.id);
    }
    expect(await ana.call('forms.template', { domain: d, templateId: t.id }, 'query')).toMatchObject({ isPrivate: true, rights: { see: true, edit: true } });

    // Public again: back for everyone.
    await ana.call('forms.setPrivate', { domain: d, templateId: t.id, isPrivate: false });
    expect(await bia.call('forms.template', { domain: d, templateId: t.id }, 'query')).toMatchObject({ isPrivate: false });
  });

  it('a deleted template is gone for everyone, with the spec sentence, and they are told', async () => {
    const { c, ana, bia, caio, create, d } = await team();
    const t = await create(ana, 'Temporário');
    const caioSocket = await caio.open();
    const lost = record(caioSocket, 'forms:lost');
    expect((await bia.attempt('forms.delete', { domain: d, templateId: t.id })).error).toMatchObject({ code: 'FORBIDDEN', message: FORM_MESSAGES.notRemover });
    await c.admin.call('forms.delete', { domain: d, templateId: t.id });
    await until(() => lost.length === 1);
    expect(lost[0]).toMatchObject({ templateId: t.id, reason: 'deleted' });
    expect((await ana.attempt('forms.template', { domain: d, templateId: t.id }, 'query')).error).toMatchObject({ code: 'NOT_FOUND', message: FORM_MESSAGES.deleted });
  });
});

describe('editors against everyone else', () => {
  it('the creator, the named editors and admins change and export; other members only read and use', async () => {
    const { c, ana, bia, caio, create, d } = await team();
    const t = await create(ana, 'Relatório de visita', { editorIds: [bia.userId] });
    const renamed = await bia.call('forms.update', { domain: d, templateId: t.id, name: 'Relatório de visita técnica' });
    expect(renamed).toMatchObject({ name: 'Relatório de visita técnica', rights: { edit: true, export: true, remove: false } });
    expect(await c.admin.call('forms.update', { domain: d, templateId: t.id, fields: [...fields, { id: 'obs', type: 'longText', label: 'Observações' }] })).toMatchObject({ version: 1 });

    expect((await caio.attempt('forms.update', { domain: d, templateId: t.id, name: 'Meu' })).error).toMatchObject({ code: 'FORBIDDEN', message: FORM_MESSAGES.notEditor });
    expect((await caio.attempt('forms.exportCsv', { domain: d, templateId: t.id }, 'query')).error).toMatchObject({ code: 'FORBIDDEN', message: FORM_MESSAGES.notExporter });
    expect(await caio.call('forms.template', { domain: d, templateId: t.id }, 'query')).toMatchObject({ rights: { see: true, edit: false, use: true, export: false } });
    expect(await bia.call('forms.exportCsv', { domain: d, templateId: t.id }, 'query')).toMatchObject({ count: 0 });

    // Who may edit is the creator's and the admins' choice, not an editor's.
    expect((await bia.attempt('forms.update', { domain: d, templateId: t.id, editorIds: [bia.userId, caio.userId] })).error).toMatchObject({
      code: 'FORBIDDEN',
      message: FORM_MESSAGES.notEditorsChange,
    });
    await ana.call('forms.update', { domain: d, templateId: t.id, editorIds: [caio.userId] });
    expect(await caio.call('forms.update', { domain: d, templateId: t.id, name: 'Visita' })).toMatchObject({ name: 'Visita' });
    expect((await bia.attempt('forms.update', { domain: d, templateId: t.id, name: 'Outra' })).error?.code).toBe('FORBIDDEN');
    // The listing and the builder say who else may edit it, by name, and who may change that.
    const caioName = (await server.db.user.findUniqueOrThrow({ where: { id: caio.userId } })).name;
    const listed = (await bia.call('forms.templates', { domain: d }, 'query')) as { id: string; editorNames: string[]; mayChangeEditors: boolean }[];
    expect(listed.find((x) => x.id === t.id)).toMatchObject({ editorNames: [caioName], mayChangeEditors: false });
    expect(await ana.call('forms.template', { domain: d, templateId: t.id }, 'query')).toMatchObject({ editorIds: [caio.userId], editorNames: [caioName], mayChangeEditors: true });
    expect(await c.admin.call('forms.template', { domain: d, templateId: t.id }, 'query')).toMatchObject({ mayChangeEditors: true });

    // Editors are active members of the company.
    const stranger = await serviceCompany(server, sockets);
    expect((await ana.attempt('forms.update', { domain: d, templateId: t.id, editorIds: [stranger.admin.userId] })).error).toMatchObject({ message: FORM_MESSAGES.editorsMembers });
  });
});

describe('formsMembro and the plan', () => {
  it('a member uses only the templates an admin allowed; admins use all', async () => {
    const { c, ana, caio, create, d } = await team();
    const a = await create(ana, 'A');
    const b = await create(ana, 'B');
    expect((await caio.attempt('forms.setMemberForms', { domain: d, userId: caio.userId, all: false, templateIds: [] })).error?.code).toBe('FORBIDDEN');
    await c.admin.call('forms.setMemberForms', { domain: d, userId: caio.userId, all: false, templateIds: [b.id] });
    expect((await caio.call('forms.usable', { domain: d }, 'query')).map((t: { id: string }) => t.id)).toEqual([b.id]);
    expect(await caio.call('forms.template', { domain: d, templateId: a.id }, 'query')).toMatchObject({ rights: { see: true, use: false } });
    const list = await c.admin.call('forms.memberForms', { domain: d }, 'query');
    expect(list.find((m: { userId: string }) => m.userId === caio.userId)).toMatchObject({ all: false, templateIds: [b.id] });
    expect(list.find((m: { userId: string }) => m.userId === ana.userId)).toMatchObject({ all: true });
    await c.admin.call('forms.setMemberForms', { domain: d, userId: c.admin.userId, all: false, templateIds: [] });
    expect((await c.admin.call('forms.usable', { domain: d }, 'query')).length).toBe(2);
  });

  it('a company whose plan lacks forms is refused with its sentence', async () => {
    const c = await serviceCompany(server, sockets, { plan: { forms: 0 } });
    const res = await c.admin.attempt('forms.templates', { domain: c.domain }, 'query');
    expect(res.error).toMatchObject({ code: 'FORBIDDEN', message: PLAN_FEATURE_MESSAGES.forms });
  });
});

describe('the listing', () => {
  it('is newest first, with creation and change dates, creator and submissions, and changes reach colleagues live', async () => {
    const { ana, caio, create, d } = await team();
    const socket = await caio.open();
    const changed = record(socket, 'forms:changed');
    const first = await create(ana, 'Primeiro');
    const second = await create(ana, 'Segundo');
    await until(() => changed.length >= 2);
    expect(changed.map((e) => e.templateId)).toEqual([first.id, second.id]);
    const list = await caio.call('forms.templates', { domain: d }, 'query');
    expect(list.map((t: { name: string }) => t.name)).toEqual(['Segundo', 'Primeiro']);
    expect(list[0]).toMatchObject({ creatorName: 'Ana Criadora', submissions: 0, version: 1 });
    expect(new Date(list[0].createdAt).getTime()).toBeGreaterThan(0);
    await ana.call('forms.update', { domain: d, templateId: first.id, name: 'Primeiro!' });
    await until(() => changed.length >= 3);
    await ana.call('forms.delete', { domain: d, templateId: second.id });
    await until(() => changed.length >= 4);
    expect((await caio.call('forms.templates', { domain: d }, 'query')).map((t: { name: string }) => t.name)).toEqual(['Primeiro!']);
  });
});

describe('tenancy', () => {
  it("another company's member cannot reach a template by id, even naming their own company", async () => {
    const a = await team();
    const b = await team();
    const t = await a.create(a.ana, 'Segredo');
    const res = await b.c.admin.attempt('forms.template', { domain: b.d, templateId: t.id }, 'query');
    expect(res.error).toMatchObject({ code: 'NOT_FOUND', message: FORM_MESSAGES.templateNotFound });
    expect((await b.c.admin.attempt('forms.delete', { domain: b.d, templateId: t.id })).error?.code).toBe('NOT_FOUND');
    expect((await b.c.admin.attempt('forms.template', { domain: a.d, templateId: t.id }, 'query')).error?.code).toBe('FORBIDDEN');
    expect(await server.db.formTemplate.findUniqueOrThrow({ where: { id: t.id } })).toMatchObject({ deletedAt: null });
  });
});
