/**
 * Filling forms inside conversations over real HTTP: an attendant fills and submits; a form sent to
 * the customer side is filled by the anonymous visitor of that conversation and nobody else;
 * drafts; versions kept; file answers on the chat's storage, limits and quota; CSV; PDF; cleanup.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ChatMessageEvent } from '../../src/shared/chat-events';
import { FORM_MESSAGES } from '../../src/shared/schemas/forms';
import { CHAT_MESSAGES } from '../../src/shared/schemas/chat';
import { companyStorageUsage } from '../../src/server/modules/chat/service';
import { purgeUnreachableForms } from '../../src/server/modules/forms/cleanup';
import { anonymousVisitor, record, serviceCompany, until, type ClientSocket, type Person } from '../helpers/service';
import { startTestServer, type TestServer } from '../helpers/server';

let server: TestServer;
const sockets: ClientSocket[] = [];
const MAX_UPLOAD = 4096;
beforeAll(async () => {
  server = await startTestServer({ env: { MAX_UPLOAD_BYTES: String(MAX_UPLOAD) } });
});
afterAll(async () => {
  for (const s of sockets) s.disconnect();
  await server?.close();
});

const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==', 'base64');

const fields = [
  { id: 'sec', type: 'heading', label: 'Dados do cliente' },
  { id: 'nome', type: 'shortText', label: 'Nome', required: true, minSize: 2 },
  { id: 'email', type: 'email', label: 'E-mail' },
  { id: 'tel', type: 'phone', label: 'Telefone' },
  { id: 'qtd', type: 'number', label: 'Quantidade', minSize: 1, maxSize: 10 },
  { id: 'tipo', type: 'singleChoice', label: 'Tipo', options: ['Instalação', 'Reparo'], required: true },
  { id: 'aceite', type: 'checkbox', label: 'Aceito os termos', required: true },
  { id: 'foto', type: 'image', label: 'Foto' },
  { id: 'anexo', type: 'file', label: 'Anexo' },
];
const answers = { nome: 'Vera Visitante', email: 'vera@example.com', tel: '(11) 98765-4321', qtd: '2', tipo: 'Reparo', aceite: true };

/** A company with a template, an attendant serving an anonymous visitor's request. */
async function served() {
  const c = await serviceCompany(server, sockets);
  const bia = await c.attendant('Bia Atendente', { groupIds: [c.group('member')] });
  const visitor = await anonymousVisitor(server, sockets);
  const req = await visitor.call('customer.request', { domain: c.domain, queueKey: 'faleconosco', name: 'Vera Visitante', text: 'Oi' });
  await bia.call('service.take', { domain: c.domain, conversationId: req.conversationId });
  const template = await c.admin.call('forms.create', { domain: c.domain, name: 'Ordem de serviço', fields });
  return { c, d: c.domain, bia, visitor, conversationId: req.conversationId as string, template };
}

function upload(who: Person, formId: string, fieldId: string, body: Buffer, name: string, type = 'application/octet-stream') {
  return fetch(`${server.url}/uploads/form/${formId}/${fieldId}?name=${encodeURIComponent(name)}`, {
    method: 'PUT',
    headers: { cookie: who.cookie, 'content-type': type },
    body: new Blob([new Uint8Array(body)]),
  }).then(async (r) => ({ status: r.status, body: (await r.json()) as any }));
}

const bytesOf = async (conversationId: string) => Number((await server.db.conversation.findUniqueOrThrow({ where: { id: conversationId } })).bytesAttachments);

describe('an attendant fills a form in the conversation', () => {
  it('starts, keeps drafts, refuses a bad submission per field, then submits it as an internal form message', async () => {
    const { c, d, bia, visitor, conversationId, template } = await served();
    const biaSocket = await bia.open();
    const visitorSocket = await visitor.open();
    const biaMessages = record(biaSocket, 'message:new');
    const visitorMessages = record(visitorSocket, 'message:new');

    const { formId } = await bia.call('forms.start', { domain: d, conversationId, templateId: template.id });
    // A draft keeps what was typed, even what would not pass yet, and says what is wrong.
    const draft = await bia.call('forms.saveDraft', { domain: d, formId, values: { nome: 'V', email: 'vera@' } });
    expect(draft).toEqual({ saved: true, problems: { email: 'email', nome: 'tooShort' } });
    expect(await bia.call('forms.form', { domain: d, formId }, 'query')).toMatchObject({ status: 'draft', values: { nome: 'V', email: 'vera@' }, canFill: true, protocol: expect.any(String) });

    const bad = await bia.attempt('forms.submit', { domain: d, formId, values: { ...answers, qtd: '50', aceite: false } });
    expect(bad.error).toMatchObject({ code: 'BAD_REQUEST', message: FORM_MESSAGES.invalidForm });
    expect(bad.error?.data.fieldErrors).toEqual({ qtd: ['tooLarge'], aceite: ['required'] });

    const done = await bia.call('forms.submit', { domain: d, formId, values: answers });
    await until(() => biaMessages.some((m) => m.type === 'formulario'));
    const message = biaMessages.find((m) => m.type === 'formulario') as ChatMessageEvent;
    expect(message).toMatchObject({ id: done.messageId, text: 'Ordem de serviço', isComment: true, authorId: bia.userId });
    expect(message.data).toMatchObject({ formId, state: 'submitted', filler: 'member', version: 1, preview: [{ label: 'Nome', text: 'Vera Visitante' }, { label: 'E-mail', text: 'vera@example.com' }, { label: 'Telefone', text: '(11) 98765-4321' }] });
    // Internal, like a comment: the customer never receives it, nor can open it.
    expect(visitorMessages.some((m) => m.type === 'formulario')).toBe(false);
    expect((await visitor.attempt('formsCustomer.form', { formId }, 'query')).error?.code).toBe('NOT_FOUND');

    expect(await bia.call('forms.form', { domain: d, formId }, 'query')).toMatchObject({
      status: 'submitted',
      submittedByName: 'Bia Atendente',
      canFill: false,
      values: { nome: 'Vera Visitante', tel: '5511987654321', qtd: 2, aceite: true, foto: null },
    });
    expect((await bia.attempt('forms.submit', { domain: d, formId, values: answers })).error).toMatchObject({ code: 'CONFLICT', message: FORM_MESSAGES.alreadySubmitted });
    expect(await server.db.message.count({ where: { conversationId, type: 'formulario' } })).toBe(1);
    expect(await bia.call('forms.conversationForms', { domain: d, conversationId }, 'query')).toMatchObject([{ id: formId, status: 'submitted', name: 'Ordem de serviço' }]);

    // Only attendants in the conversation: the admin who is not in it is refused.
    expect((await c.admin.attempt('forms.form', { domain: d, formId }, 'query')).error).toMatchObject({ code: 'FORBIDDEN', message: CHAT_MESSAGES.notParticipant });
    expect((await c.admin.attempt('forms.start', { domain: d, conversationId, templateId: template.id })).error?.code).toBe('FORBIDDEN');
  });

  it('a changed template leaves the filled form as it was (it keeps its version)', async () => {
    const { c, d, bia, conversationId, template } = await served();
    const { formId } = await bia.call('forms.start', { domain: d, conversationId, templateId: template.id });
    await bia.call('forms.submit', { domain: d, formId, values: answers });
    const changed = fields.map((f) => (f.id === 'nome' ? { ...f, label: 'Nome completo' } : f)).filter((f) => f.id !== 'tel');
    expect(await c.admin.call('forms.update', { domain: d, templateId: template.id, fields: changed })).toMatchObject({ version: 2 });
    const old = await bia.call('forms.form', { domain: d, formId }, 'query');
    expect(old).toMatchObject({ version: 1, outdated: true });
    expect(old.fields.map((f: { label: string }) => f.label)).toContain('Telefone');
    expect(old.fields.find((f: { id: string }) => f.id === 'nome').label).toBe('Nome');
    // A new form uses the new version; changing again before anyone uses v2 rewrites it.
    const { formId: second } = await bia.call('forms.start', { domain: d, conversationId, templateId: template.id });
    expect(await bia.call('forms.form', { domain: d, formId: second }, 'query')).toMatchObject({ version: 2, outdated: false });
    await bia.call('forms.discard', { domain: d, formId: second });
    expect(await c.admin.call('forms.update', { domain: d, templateId: template.id, name: 'OS' })).toMatchObject({ version: 2 });
    expect(await server.db.formTemplateVersion.count({ where: { templateId: template.id } })).toBe(2);
  });
});

describe('a form sent to the customer side', () => {
  it('is filled and submitted by the anonymous visitor of that conversation, and by nobody else', async () => {
    const { c, d, bia, visitor, conversationId, template } = await served();
    const biaSocket = await bia.open();
    const visitorSocket = await visitor.open();
    const toVisitor = record(visitorSocket, 'message:new');
    const toBia = record(biaSocket, 'message:new');
    const formEvents = record(biaSocket, 'forms:form');

    const { formId } = await bia.call('forms.start', { domain: d, conversationId, templateId: template.id, forCustomer: true });
    await until(() => toVisitor.some((m) => m.type === 'formulario'));
    expect(toVisitor.find((m) => m.type === 'formulario')).toMatchObject({ isComment: false, data: { formId, state: 'requested', filler: 'customer' } });

    // Another anonymous visitor, and an attendant, cannot fill it from the customer side.
    const stranger = await anonymousVisitor(server, sockets);
    expect((await stranger.attempt('formsCustomer.form', { formId }, 'query')).error).toMatchObject({ code: 'FORBIDDEN', message: CHAT_MESSAGES.notParticipant });
    expect((await stranger.attempt('formsCustomer.submit', { formId, values: answers })).error?.code).toBe('FORBIDDEN');
    expect((await bia.attempt('formsCustomer.submit', { formId, values: answers })).error).toMatchObject({ code: 'FORBIDDEN', message: FORM_MESSAGES.notYours });
    expect((await bia.attempt('forms.submit', { domain: d, formId, values: answers })).error).toMatchObject({ code: 'FORBIDDEN', message: FORM_MESSAGES.notYours });
    expect((await upload(stranger, formId, 'foto', PNG, 'x.png', 'image/png')).status).toBe(403);

    expect(await visitor.call('formsCustomer.form', { formId }, 'query')).toMatchObject({ status: 'draft', filler: 'customer', canFill: true, companyName: c.company.name });
    await visitor.call('formsCustomer.saveDraft', { formId, values: { nome: 'Vera' } });
    await until(() => formEvents.some((e) => e.formId === formId && e.status === 'draft'));
    expect(await bia.call('forms.form', { domain: d, formId }, 'query')).toMatchObject({ values: { nome: 'Vera' }, canFill: false });

    const photo = await upload(visitor, formId, 'foto', PNG, 'foto.png', 'image/png');
    expect(photo).toMatchObject({ status: 200, body: { fieldId: 'foto', value: { name: 'foto.png', mime: 'image/png', size: PNG.length } } });
    await visitor.call('formsCustomer.submit', { formId, values: answers });
    await until(() => toBia.some((m) => m.type === 'formulario' && (m.data as { state: string }).state === 'submitted'));
    const submitted = toBia.find((m) => (m.data as { state?: string } | null)?.state === 'submitted')!;
    expect(submitted).toMatchObject({ authorId: visitor.userId, isComment: false, data: { formId, filler: 'customer' } });
    expect(await visitor.call('formsCustomer.form', { formId }, 'query')).toMatchObject({ status: 'submitted', submittedByName: 'Vera Visitante', canFill: false, values: { foto: { name: 'foto.png' } } });

    // Both sides get a link to the photo; the stranger does not.
    const link = await visitor.call('formsCustomer.fileLink', { formId, fieldId: 'foto' }, 'query');
    expect((await fetch(link.url)).status).toBe(200);
    expect((await bia.call('forms.fileLink', { domain: d, formId, fieldId: 'foto' }, 'query')).url).toMatch(/^http/);
    expect((await stranger.attempt('formsCustomer.fileLink', { formId, fieldId: 'foto' }, 'query')).error?.code).toBe('FORBIDDEN');
  });

  it('cannot be sent where no customer takes part', async () => {
    const c = await serviceCompany(server, sockets);
    const bia = await c.attendant('Bia');
    const { conversationId } = await c.admin.call('chat.startDirect', { domain: c.domain, userId: bia.userId });
    const t = await c.admin.call('forms.create', { domain: c.domain, name: 'Interno', fields });
    expect((await c.admin.attempt('forms.start', { domain: c.domain, conversationId, templateId: t.id, forCustomer: true })).error).toMatchObject({ message: FORM_MESSAGES.noCustomer });
  });

  it('made private by its creator while waiting, it is gone for the customer too, and they are told', async () => {
    const { c, d, bia, visitor, conversationId, template } = await served();
    const { formId } = await bia.call('forms.start', { domain: d, conversationId, templateId: template.id, forCustomer: true });
    const lost = record(await visitor.open(), 'forms:lost');
    await c.admin.call('forms.setPrivate', { domain: d, templateId: template.id, isPrivate: true });
    await until(() => lost.length === 1);
    expect((await visitor.attempt('formsCustomer.form', { formId }, 'query')).error).toMatchObject({ code: 'FORBIDDEN', message: FORM_MESSAGES.madePrivate });
    expect((await bia.attempt('forms.form', { domain: d, formId }, 'query')).error).toMatchObject({ code: 'FORBIDDEN', message: FORM_MESSAGES.madePrivate });
  });
});

describe('file answers', () => {
  it('go through the chat limits and quota, are counted in the conversation and given back when replaced or discarded', async () => {
    const { c, d, bia, conversationId, template } = await served();
    const { formId } = await bia.call('forms.start', { domain: d, conversationId, templateId: template.id });
    const before = await bytesOf(conversationId);

    expect(await upload(bia, formId, 'anexo', Buffer.alloc(MAX_UPLOAD + 1), 'big.bin')).toMatchObject({ status: 413, body: { code: 'fileTooLarge' } });
    expect(await upload(bia, formId, 'foto', Buffer.from('not an image at all'), 'x.png', 'image/png')).toMatchObject({ status: 415, body: { code: 'notAnImage' } });
    expect(await upload(bia, formId, 'nome', Buffer.from('hi'), 'x.txt')).toMatchObject({ status: 400, body: { error: FORM_MESSAGES.notAFileField, code: 'BAD_REQUEST' } });

    const first = await upload(bia, formId, 'anexo', Buffer.alloc(1000, 1), 'laudo.pdf', 'application/pdf');
    expect(first).toMatchObject({ status: 200, body: { value: { name: 'laudo.pdf', size: 1000, mime: 'application/pdf' } } });
    expect(await bytesOf(conversationId)).toBe(before + 1000);
    const firstKey = ((await server.db.filledForm.findUniqueOrThrow({ where: { id: formId } })).values as any).anexo.key as string;
    expect(firstKey.startsWith(`${d}/${conversationId}/forms/${formId}/anexo/`)).toBe(true);

    await upload(bia, formId, 'anexo', Buffer.alloc(300, 2), 'laudo-v2.pdf', 'application/pdf');
    expect(await bytesOf(conversationId)).toBe(before + 300);
    await expect(server.server.deps.storage.stat(firstKey)).rejects.toThrow();

    // The company's quota counts form files like chat files.
    const usage = await companyStorageUsage(server.db, c.company.id);
    await server.db.company.update({ where: { id: c.company.id }, data: { storageBytes: BigInt(usage.totalBytes + PNG.length + 100) } });
    expect(await upload(bia, formId, 'foto', PNG, 'foto.png', 'image/png')).toMatchObject({ status: 200 });
    expect(await upload(bia, formId, 'anexo', Buffer.alloc(3000, 3), 'grande.pdf')).toMatchObject({ status: 507, body: { code: 'quotaExceeded' } });

    await bia.call('forms.discard', { domain: d, formId });
    expect(await bytesOf(conversationId)).toBe(before);
    expect(await server.db.filledForm.count({ where: { id: formId } })).toBe(0);
  });

  it('of a deleted conversation are removed by the cleanup job', async () => {
    const { c, d, bia, conversationId, template } = await served();
    const { formId } = await bia.call('forms.start', { domain: d, conversationId, templateId: template.id });
    await upload(bia, formId, 'anexo', Buffer.alloc(100, 1), 'a.bin');
    const key = ((await server.db.filledForm.findUniqueOrThrow({ where: { id: formId } })).values as any).anexo.key as string;
    await c.admin.call('chat.deleteConversation', { domain: d, conversationId, confirmation: 'REMOVER' });
    expect(await server.db.filledForm.findUniqueOrThrow({ where: { id: formId } })).toMatchObject({ conversationId: null });
    expect(await purgeUnreachableForms(server.server.deps)).toBeGreaterThanOrEqual(1);
    expect(await server.db.filledForm.count({ where: { id: formId } })).toBe(0);
    await expect(server.server.deps.storage.stat(key)).rejects.toThrow();
  });
});

describe('export and print', () => {
  it('CSV: one column per question over the versions, one row per submission, for admins and editors', async () => {
    const { c, d, bia, visitor, conversationId, template } = await served();
    const one = await bia.call('forms.start', { domain: d, conversationId, templateId: template.id });
    await bia.call('forms.submit', { domain: d, formId: one.formId, values: answers });
    await c.admin.call('forms.update', { domain: d, templateId: template.id, fields: [...fields, { id: 'obs', type: 'longText', label: 'Observações' }] });
    const two = await bia.call('forms.start', { domain: d, conversationId, templateId: template.id, forCustomer: true });
    await visitor.call('formsCustomer.submit', { formId: two.formId, values: { ...answers, nome: '=cmd()', aceite: true, obs: 'linha 1, "aspas"' } });
    const draft = await bia.call('forms.start', { domain: d, conversationId, templateId: template.id });
    await bia.call('forms.saveDraft', { domain: d, formId: draft.formId, values: { nome: 'Rascunho' } });

    const out = await c.admin.call('forms.exportCsv', { domain: d, templateId: template.id, lang: 'pt' }, 'query');
    expect(out).toMatchObject({ fileName: 'Ordem-de-servico.csv', count: 2 });
    const lines = (out.csv as string).replace(/^\uFEFF/, '').trim().split('\r\n');
    expect(lines[0]).toBe('Formulário,Enviado em,Preenchido por,Protocolo,Versão,Nome,E-mail,Telefone,Quantidade,Tipo,Aceito os termos,Foto,Anexo,Observações');
    expect(lines).toHaveLength(3);
    expect(lines[1]).toContain(`${one.formId},`);
    expect(lines[1]).toContain(',Bia Atendente,');
    expect(lines[1]).toMatch(/,1,Vera Visitante,vera@example.com,\(11\) 98765-4321,2,Reparo,Sim,,,$/);
    expect(lines[2]).toMatch(/,2,'=cmd\(\),vera@example.com,.*,Sim,,,"linha 1, ""aspas"""$/);
    expect(lines.join()).not.toContain('Rascunho');
  });

  it('PDF: made on the server for whoever may read the form, refused to others', async () => {
    const { d, bia, visitor, conversationId, template } = await served();
    const { formId } = await bia.call('forms.start', { domain: d, conversationId, templateId: template.id, forCustomer: true });
    await upload(visitor, formId, 'foto', PNG, 'foto.png', 'image/png');
    await visitor.call('formsCustomer.submit', { formId, values: answers });
    for (const who of [bia, visitor]) {
      const res = await fetch(`${server.url}/forms/${formId}/pdf?lang=pt&tz=America/Sao_Paulo`, { headers: { cookie: who.cookie } });
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toBe('application/pdf');
      expect(res.headers.get('content-disposition')).toBe('attachment; filename="Ordem-de-servico.pdf"');
      const body = Buffer.from(await res.arrayBuffer());
      expect(body.subarray(0, 5).toString()).toBe('%PDF-');
      // The picture is drawn (an image XObject), not just named.
      expect(body.toString('latin1')).toContain('/Subtype /Image');
    }
    const stranger = await anonymousVisitor(server, sockets);
    expect((await fetch(`${server.url}/forms/${formId}/pdf`, { headers: { cookie: stranger.cookie } })).status).toBe(403);
    expect((await fetch(`${server.url}/forms/${formId}/pdf`)).status).toBe(401);
  });
});

describe('tenancy of filled forms', () => {
  it("a member of another company cannot read, fill or upload to a company's form", async () => {
    const a = await served();
    const b = await served();
    const { formId } = await a.bia.call('forms.start', { domain: a.d, conversationId: a.conversationId, templateId: a.template.id });
    expect((await b.bia.attempt('forms.form', { domain: b.d, formId }, 'query')).error?.code).toBe('NOT_FOUND');
    expect((await b.bia.attempt('forms.saveDraft', { domain: b.d, formId, values: { nome: 'x' } })).error?.code).toBe('NOT_FOUND');
    expect((await b.bia.attempt('forms.form', { domain: a.d, formId }, 'query')).error?.code).toBe('FORBIDDEN');
    expect((await upload(b.bia, formId, 'anexo', Buffer.alloc(10), 'x.bin')).status).toBe(404);
    expect((await server.db.filledForm.findUniqueOrThrow({ where: { id: formId } })).values).toEqual({});
  });
});
