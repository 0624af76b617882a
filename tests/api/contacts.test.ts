/**
 * Customers (external contacts): the profile permissions addContacts / editContacts enforced by
 * the server, the record's checks with the company's additional fields, customers remembered when
 * they ask for service with their history, merging two records, the CSV import with progress and a
 * row-by-row report (bad rows refused, good ones written), the CSV export, and tenancy.
 */
import { describe, expect, it } from 'vitest';
import { runImport } from '../../src/server/modules/contacts/imports';
import { anonymousVisitor, customer, record, serviceCompany, until, type Person } from '../helpers/service';
import type { TestServer } from '../helpers/server';
import { serverSuite } from '../helpers/suite';

let server: TestServer;
const sockets = serverSuite((s) => (server = s));

const company = () => serviceCompany(server, sockets);
const setPermissions = (companyId: string, code: string, permissions: Record<string, boolean>) =>
  server.db.profile.update({ where: { companyId_code: { companyId, code } }, data: { permissions } });

async function importCsv(p: Person, domain: string, csv: string, name = 'clientes.csv') {
  const res = await fetch(`${server.url}/uploads/contacts/${domain}/import?name=${encodeURIComponent(name)}`, {
    method: 'PUT',
    headers: { cookie: p.cookie, 'content-type': 'text/csv' },
    body: csv,
  });
  return { status: res.status, body: (await res.json()) as any };
}

describe('permissions', () => {
  it('adding needs addContacts, changing needs editContacts; reading the directory needs neither', async () => {
    const c = await company();
    const bia = await c.attendant('Bia');
    const created = await bia.call('contacts.create', { domain: c.domain, name: 'Rita Souza', email: 'RITA@Example.com', phone: '(11) 98765-4321' });
    expect(created).toMatchObject({ name: 'Rita Souza', email: 'rita@example.com', phone: '5511987654321', source: 'manual' });

    await setPermissions(c.company.id, 'M01', { addContacts: false, editContacts: false });
    const refused = { code: 'FORBIDDEN', message: 'Your profile does not allow this' };
    expect((await bia.attempt('contacts.create', { domain: c.domain, name: 'Outro' })).error).toMatchObject(refused);
    expect((await bia.attempt('contacts.update', { domain: c.domain, contactId: created.id, name: 'Rita S.' })).error).toMatchObject(refused);
    expect((await bia.attempt('contacts.remove', { domain: c.domain, contactId: created.id })).error).toMatchObject(refused);
    expect((await bia.attempt('contacts.exportCsv', { domain: c.domain }, 'query')).error).toMatchObject(refused);
    expect((await importCsv(bia, c.domain, 'name\nX\n')).status).toBe(403);
    expect((await bia.call('contacts.list', { domain: c.domain }, 'query')).items).toHaveLength(1);

    await setPermissions(c.company.id, 'M01', { addContacts: false, editContacts: true });
    expect(await bia.call('contacts.update', { domain: c.domain, contactId: created.id, name: 'Rita S.', email: 'rita@example.com' })).toMatchObject({ name: 'Rita S.' });
    // Admins may do everything whatever their profile says.
    await c.admin.call('contacts.create', { domain: c.domain, name: 'Pelo admin' });
    // Another company's contact does not exist here.
    const other = await company();
    expect((await other.admin.attempt('contacts.get', { domain: other.domain, contactId: created.id }, 'query')).error?.code).toBe('NOT_FOUND');
    expect((await other.admin.attempt('contacts.get', { domain: c.domain, contactId: created.id }, 'query')).error?.code).toBe('FORBIDDEN');
  });

  it("checks the record and the company's additional fields, field by field", async () => {
    const c = await company();
    await c.admin.call('additionalFields.create', { domain: c.domain, name: 'Plano', tag: 'PLANO', multipleChoice: true, options: ['Ouro', 'Prata'] });
    const res = await c.admin.attempt('contacts.create', { domain: c.domain, name: '', email: 'not-an-email', phone: 'abc', fields: { PLANO: 'Bronze', NOPE: 'x' } });
    expect(res.error?.code).toBe('BAD_REQUEST');
    expect(res.error?.data.fieldErrors).toMatchObject({ name: ['Name is required'], email: ['Invalid email'], phone: ['Invalid phone number'], fields: expect.any(Array) });
    const ok = await c.admin.call('contacts.create', { domain: c.domain, name: '  Zé   Lima ', fields: { PLANO: 'Ouro' }, tags: ['vip', ' vip', 'atacado'] });
    expect(ok).toMatchObject({ name: 'Zé Lima', fields: { PLANO: 'Ouro' }, tags: ['vip', 'atacado'] });
    const found = await c.admin.call('contacts.list', { domain: c.domain, q: 'ze' }, 'query');
    expect(found.items.map((x: { name: string }) => x.name)).toEqual(['Zé Lima']);
    expect((await c.admin.call('contacts.list', { domain: c.domain, tag: 'atacado' }, 'query')).items).toHaveLength(1);
  });
});

describe('customers who ask for service, their history, and merging', () => {
  it('remembers a customer with their conversations and rating; merging two records keeps one with both histories', async () => {
    const c = await company();
    const bia = await c.attendant('Bia', { groupIds: [c.group('member')] });
    const carlos = await customer(server, sockets, 'Carlos Cliente', 'carlos@example.test');
    const first = await carlos.call('customer.request', { domain: c.domain, queueKey: 'faleconosco', text: 'Olá' });
    await bia.call('service.take', { domain: c.domain, conversationId: first.conversationId });
    await bia.call('service.conclude', { domain: c.domain, conversationId: first.conversationId });
    await carlos.call('customer.rate', { conversationId: first.conversationId, stars: 4 });

    const list = await bia.call('contacts.list', { domain: c.domain, q: 'carlos' }, 'query');
    expect(list.items).toMatchObject([{ name: 'Carlos Cliente', email: 'carlos@example.test', source: 'publicPage', hasAccount: true }]);
    const carlosId = list.items[0].id;
    // Asking again does not make a second record.
    await carlos.call('customer.request', { domain: c.domain, queueKey: 'faleconosco', text: 'De novo' });
    expect((await bia.call('contacts.list', { domain: c.domain }, 'query')).total).toBe(1);

    // An anonymous visitor becomes another record; it is the same person: merge.
    const visitor = await anonymousVisitor(server, sockets);
    await visitor.call('customer.request', { domain: c.domain, queueKey: 'faleconosco', name: 'Carlão', text: 'Oi' });
    const visitorId = (await bia.call('contacts.list', { domain: c.domain, q: 'carlão' }, 'query')).items[0].id;
    await bia.call('contacts.update', { domain: c.domain, contactId: visitorId, name: 'Carlão', phone: '+55 11 91234-5678', tags: ['whatsapp'], notes: 'Prefere WhatsApp' });
    expect((await bia.attempt('contacts.merge', { domain: c.domain, keepId: carlosId, mergeId: carlosId })).error?.message).toBe('Choose two different contacts to merge');
    const merged = await bia.call('contacts.merge', { domain: c.domain, keepId: carlosId, mergeId: visitorId });
    expect(merged).toMatchObject({ id: carlosId, name: 'Carlos Cliente', email: 'carlos@example.test', phone: '5511912345678', tags: ['whatsapp'], notes: 'Prefere WhatsApp' });
    expect((await bia.attempt('contacts.get', { domain: c.domain, contactId: visitorId }, 'query')).error?.code).toBe('NOT_FOUND');

    const full = await bia.call('contacts.get', { domain: c.domain, contactId: carlosId }, 'query');
    expect(full.conversations).toHaveLength(3);
    expect(full.ratings).toEqual([expect.objectContaining({ conversationId: first.conversationId, rating: 4 })]);
    // The visitor's next request lands on the merged record.
    await visitor.call('customer.request', { domain: c.domain, queueKey: 'faleconosco', text: 'Voltei' }).catch(() => undefined);
    expect((await bia.call('contacts.list', { domain: c.domain }, 'query')).total).toBe(1);
  });
});

describe('CSV', () => {
  it('imports good rows, reports each bad row with its line and reason, pushes progress, and updates known e-mails', async () => {
    const c = await company();
    await c.admin.call('additionalFields.create', { domain: c.domain, name: 'Plano', tag: 'PLANO', multipleChoice: true, options: ['Ouro', 'Prata'] });
    await c.admin.call('contacts.create', { domain: c.domain, name: 'Existente', email: 'existe@example.com', tags: ['antigo'] });
    const progress = record(await c.admin.open(), 'contacts:import');
    const rows = ['Nome;E-mail;Telefone;Empresa;Tags;Plano'];
    for (let i = 1; i <= 250; i++) rows.push(`Pessoa ${i};p${i}@example.com;(11) 9${String(1000_0000 + i)};Loja ${i};cliente;Ouro`);
    rows[10] = 'Sem Email;not-an-email;;;;'; // row 11
    rows[20] = ';semnome@example.com;;;;'; // row 21
    rows[30] = 'Plano Errado;pe@example.com;;;;Bronze'; // row 31
    rows.push('Existente Atualizado;EXISTE@example.com;;Nova Loja;vip;Prata');
    rows.push('"Aspas; e quebra\nde linha";q@example.com;;;;');
    const { status, body } = await importCsv(c.admin, c.domain, rows.join('\r\n'));
    expect(status).toBe(200);
    expect(body.total).toBe(252);
    await until(async () => (await c.admin.call('contacts.importStatus', { domain: c.domain, importId: body.importId }, 'query')).status === 'done', 30_000);
    const report = await c.admin.call('contacts.importStatus', { domain: c.domain, importId: body.importId }, 'query');
    expect(report).toMatchObject({ total: 252, processed: 252, created: 248, updated: 1, failed: 3 });
    expect(report.errors).toEqual([
      { row: 11, message: 'email: Invalid email' },
      { row: 21, message: 'name: Name is required' },
      { row: 31, message: 'PLANO: Choose one of the options' },
    ]);
    // Progress is pushed batch by batch (100 rows each), in order. The socket of a test client
    // does not reconnect, so on a starved machine the last pushes may not arrive: what did arrive
    // must be the batches, in order.
    await until(() => progress.length > 0);
    const pushed = progress.map((p) => p.processed);
    expect([100, 200, 252].slice(0, pushed.length)).toEqual(pushed);
    const updated = (await c.admin.call('contacts.list', { domain: c.domain, q: 'existe@' }, 'query')).items[0];
    expect(updated).toMatchObject({ name: 'Existente Atualizado', organization: 'Nova Loja', tags: ['antigo', 'vip'], fields: { PLANO: 'Prata' } });
    expect((await c.admin.call('contacts.list', { domain: c.domain, q: 'quebra' }, 'query')).items[0].name).toBe('Aspas; e quebra de linha');

    // The importer's report is theirs.
    const bia = await c.attendant('Bia');
    expect((await bia.attempt('contacts.importStatus', { domain: c.domain, importId: body.importId }, 'query')).error?.code).toBe('NOT_FOUND');
    // Files that cannot be imported say why.
    expect((await importCsv(c.admin, c.domain, 'email\na@b.co\n')).body.error).toBe('The file needs a "name" column');
    expect((await importCsv(c.admin, c.domain, 'name\n')).body.error).toBe('The file has no rows to import');
  });

  it('resumes an import cut short from the last batch written, without writing a row twice', async () => {
    const c = await company();
    const rows = ['name,email', ...Array.from({ length: 150 }, (_, i) => `R${i},r${i}@example.com`)];
    const { body } = await importCsv(c.admin, c.domain, rows.join('\n'));
    await until(async () => (await server.db.contactImport.findUniqueOrThrow({ where: { id: body.importId } })).status === 'done');
    // As if the process died after the first batch: 100 rows done, the checked rows still kept; then two resumes at once.
    const pending = rows.slice(1).map((r, i) => ({ row: i + 2, contact: { name: r.split(',')[0], email: r.split(',')[1], phone: null, organization: '', fields: {}, tags: [], notes: '' } }));
    await server.db.contactImport.update({ where: { id: body.importId }, data: { status: 'running', processed: 100, pending } });
    await server.db.contact.deleteMany({ where: { companyId: c.company.id, name: { in: rows.slice(101).map((r) => r.split(',')[0]!) } } });
    await Promise.all([runImport(server.server.deps, body.importId), runImport(server.server.deps, body.importId)]);
    expect(await server.db.contact.count({ where: { companyId: c.company.id } })).toBe(150);
    expect(await server.db.contactImport.findUniqueOrThrow({ where: { id: body.importId } })).toMatchObject({ status: 'done', processed: 150, created: 200, updated: 0 });
  });

  it('exports the directory as CSV with the additional fields, neutralising formulas', async () => {
    const c = await company();
    await c.admin.call('additionalFields.create', { domain: c.domain, name: 'Plano', tag: 'PLANO', multipleChoice: false, options: [] });
    await c.admin.call('contacts.create', { domain: c.domain, name: 'Ana', email: 'ana@example.com', tags: ['a', 'b'], fields: { PLANO: 'Ouro' } });
    await c.admin.call('contacts.create', { domain: c.domain, name: '=HYPERLINK("http://evil")', notes: 'linha 1\nlinha 2' });
    const out = await c.admin.call('contacts.exportCsv', { domain: c.domain }, 'query');
    expect(out.count).toBe(2);
    expect(out.fileName).toBe(`${c.domain}-contacts.csv`);
    expect(out.csv).toBe(
      '\uFEFFname,email,phone,company,tags,notes,PLANO\r\n' +
        `"'=HYPERLINK(""http://evil"")",,,,,"linha 1\nlinha 2",\r\n` +
        'Ana,ana@example.com,,,"a; b",,Ouro\r\n',
    );
  });
});
