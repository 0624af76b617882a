/**
 * Commerce over real HTTP: the catalogue (admins edit, CSV out and in, all or nothing), a budget an
 * attendant sends into a conversation and its customer answers, the sale taking stock in one
 * transaction (two customers racing for the last unit), validity, the plan flag, tenancy, PDFs.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ChatMessageEvent } from '../../src/shared/chat-events';
import { COMMERCE_MESSAGES as M, PRICE_MAX_CENTS } from '../../src/shared/domain/commerce';
import { PLAN_FEATURE_MESSAGES } from '../../src/shared/domain/company';
import { pdfText } from '../helpers/pdf-text';
import { anonymousVisitor, record, serviceCompany, until, type ClientSocket, type Person } from '../helpers/service';
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

const inDays = (n: number) => new Date(Date.now() + n * 86_400_000).toISOString();

/** A company with stock control, an attendant, and a product catalogue. */
async function shop(plan: Record<string, number> = { invent: 1 }) {
  const c = await serviceCompany(server, sockets, { plan });
  const bia = await c.attendant('Bia Atendente', { groupIds: [c.group('member')] });
  return { c, d: c.domain, bia };
}

async function product(admin: Person, domain: string, code: string, quantity: number, priceCents: number, name = `Produto ${code}`) {
  return admin.call('commerce.saveProduct', { domain, code, name, quantity, priceCents });
}

/** An anonymous visitor's request, taken by the attendant: the conversation a budget goes into. */
async function served(s: Awaited<ReturnType<typeof shop>>, name = 'Vera Visitante') {
  const visitor = await anonymousVisitor(server, sockets);
  const req = await visitor.call('customer.request', { domain: s.d, queueKey: 'faleconosco', name, text: 'Quero um orçamento' });
  await s.bia.call('service.take', { domain: s.d, conversationId: req.conversationId });
  return { visitor, conversationId: req.conversationId as string };
}

describe('catalogue', () => {
  it('admins create and change products; codes are unique per company; members only read', async () => {
    const s = await shop();
    const cabo = await product(s.c.admin, s.d, 'CB-1', 10, 1290, 'Cabo USB');
    expect(cabo).toMatchObject({ code: 'CB-1', name: 'Cabo USB', quantity: 10, priceCents: 1290 });
    expect((await s.c.admin.attempt('commerce.saveProduct', { domain: s.d, code: 'CB-1', name: 'Outro', quantity: 1, priceCents: 1 })).error).toMatchObject({ code: 'CONFLICT', message: M.codeTaken });
    // Another company may use the same code.
    const other = await shop();
    await product(other.c.admin, other.d, 'CB-1', 1, 1);
    const changed = await s.c.admin.call('commerce.saveProduct', { domain: s.d, productId: cabo.id, code: 'CB-1', name: 'Cabo USB-C', quantity: 7, priceCents: 1500 });
    expect(changed).toMatchObject({ name: 'Cabo USB-C', quantity: 7, priceCents: 1500 });
    expect(await s.bia.call('commerce.products', { domain: s.d, search: 'usb' }, 'query')).toMatchObject([{ code: 'CB-1' }]);
    expect((await s.bia.attempt('commerce.saveProduct', { domain: s.d, code: 'X', name: 'X', quantity: 1, priceCents: 1 })).error?.code).toBe('FORBIDDEN');
    // Money is integer cents, bounded: a fraction or a huge price is bad input, never a 500.
    for (const priceCents of [12.5, -1, PRICE_MAX_CENTS + 1]) {
      expect((await s.c.admin.attempt('commerce.saveProduct', { domain: s.d, code: 'Y', name: 'Y', quantity: 1, priceCents })).error?.code).toBe('BAD_REQUEST');
    }
    // Tenancy: another company's admin cannot change or remove it through their own domain.
    expect((await other.c.admin.attempt('commerce.saveProduct', { domain: other.d, productId: cabo.id, code: 'Z', name: 'Z', quantity: 0, priceCents: 0 })).error?.code).toBe('NOT_FOUND');
    expect((await other.c.admin.attempt('commerce.removeProduct', { domain: other.d, productId: cabo.id })).error?.code).toBe('NOT_FOUND');
    expect((await server.db.product.findUniqueOrThrow({ where: { id: cabo.id } })).name).toBe('Cabo USB-C');
    await s.c.admin.call('commerce.removeProduct', { domain: s.d, productId: cabo.id });
    expect(await s.bia.call('commerce.products', { domain: s.d }, 'query')).toEqual([]);
  });

  it('CSV: exports what imports; a file with a bad row writes nothing', async () => {
    const s = await shop();
    await product(s.c.admin, s.d, 'A1', 5, 1000, 'Mouse, sem fio');
    const exported = await s.c.admin.call('commerce.exportCsv', { domain: s.d }, 'query');
    expect(exported).toMatchObject({ fileName: 'produtos.csv', count: 1 });
    expect(exported.csv).toBe('\uFEFFcodigo,nome,quantidade,preco\r\nA1,"Mouse, sem fio",5,"10,00"\r\n');

    const bad = 'codigo;nome;quantidade;preco\nA1;Mouse;9;10,00\nB2;Teclado;x;99,90\nC3;Monitor;1;abc\n';
    const refused = await s.c.admin.attempt('commerce.importCsv', { domain: s.d, csv: bad });
    expect(refused.error?.code).toBe('BAD_REQUEST');
    expect(refused.error?.message).toContain(M.invalidRows);
    expect(refused.error?.message).toContain('linha 3');
    expect(refused.error?.message).toContain('linha 4: Preço inválido');
    expect(await server.db.product.count({ where: { companyId: s.c.company.id } })).toBe(1);
    expect((await server.db.product.findFirstOrThrow({ where: { companyId: s.c.company.id } })).quantity).toBe(5);

    const good = 'Código;Nome;Quantidade;Preço\nA1;Mouse;9;10,50\nB2;Teclado;3;1.299,90\n';
    expect(await s.c.admin.call('commerce.importCsv', { domain: s.d, csv: good })).toEqual({ created: 1, updated: 1 });
    const rows = await s.c.admin.call('commerce.products', { domain: s.d }, 'query');
    expect(rows.map((r: any) => [r.code, r.name, r.quantity, r.priceCents])).toEqual([
      ['A1', 'Mouse', 9, 1050],
      ['B2', 'Teclado', 3, 129990],
    ]);
    expect((await s.c.admin.attempt('commerce.importCsv', { domain: s.d, csv: 'foo,bar\n1,2\n' })).error?.message).toBe(M.missingColumns);
    expect((await s.c.admin.attempt('commerce.importCsv', { domain: s.d, csv: 'codigo,nome,quantidade,preco\nA,a,1,1\na,b,1,1\n' })).error?.message).toContain('Código repetido');
    expect((await s.bia.attempt('commerce.importCsv', { domain: s.d, csv: good })).error?.code).toBe('FORBIDDEN');
  });
});

describe('budget → sale', () => {
  it('the attendant sends a budget into the conversation; the customer accepts; the sale takes the stock', async () => {
    const s = await shop();
    const cabo = await product(s.c.admin, s.d, 'CB', 10, 1290, 'Cabo USB');
    const fonte = await product(s.c.admin, s.d, 'FT', 2, 5000, 'Fonte 12V');
    const { visitor, conversationId } = await served(s);
    const visitorSocket = await visitor.open();
    const seen = record(visitorSocket, 'message:new') as ChatMessageEvent[];

    const tooMuch = await s.bia.attempt('commerce.createBudget', { domain: s.d, conversationId, items: [{ productId: cabo.id, quantity: 1 }], discountCents: 1291, validUntil: inDays(7), send: true });
    expect(tooMuch.error).toMatchObject({ code: 'BAD_REQUEST', message: M.discountTooHigh });
    expect((await s.bia.attempt('commerce.createBudget', { domain: s.d, conversationId, items: [{ productId: cabo.id, quantity: 1 }], validUntil: inDays(-1) })).error?.message).toBe(M.validityPast);

    const created = await s.bia.call('commerce.createBudget', {
      domain: s.d,
      conversationId,
      items: [
        { productId: cabo.id, quantity: 3, discountPercent: 10 }, // 3 × 12,90 = 38,70 − 10% = 34,83
        { productId: fonte.id, quantity: 2 }, // 100,00
      ],
      discountCents: 483,
      validUntil: inDays(7),
      notes: 'Entrega em 2 dias',
      send: true,
    });
    expect(created).toMatchObject({ status: 'sent', totalCents: 13000 });
    await until(() => seen.some((m) => m.type === 'orcamento'));
    expect(seen.find((m) => m.type === 'orcamento')!.data).toMatchObject({ budgetId: created.budgetId, state: 'sent', totalCents: 13000, items: 2 });

    const asCustomer = await visitor.call('commerceView.budget', { budgetId: created.budgetId }, 'query');
    expect(asCustomer).toMatchObject({ status: 'sent', canDecide: true, subtotalCents: 13483, discountCents: 483, totalCents: 13000, notes: 'Entrega em 2 dias', customerNames: ['Vera Visitante'] });
    expect(asCustomer.items.map((i: any) => i.totalCents)).toEqual([3483, 10000]);
    // The attendant reads it too, but the answer is the customer's.
    expect(await s.bia.call('commerceView.budget', { budgetId: created.budgetId }, 'query')).toMatchObject({ canDecide: false, side: 'member' });
    expect((await s.bia.attempt('commerceView.accept', { budgetId: created.budgetId })).error).toMatchObject({ code: 'FORBIDDEN', message: M.customerOnly });

    const accepted = await visitor.call('commerceView.accept', { budgetId: created.budgetId });
    expect(accepted).toMatchObject({ status: 'accepted', saleId: expect.any(String) });
    await until(() => seen.some((m) => m.type === 'orcamento' && (m.data as any).state === 'accepted'));
    expect((await server.db.product.findUniqueOrThrow({ where: { id: cabo.id } })).quantity).toBe(7);
    expect((await server.db.product.findUniqueOrThrow({ where: { id: fonte.id } })).quantity).toBe(0);
    const sale = await visitor.call('commerceView.sale', { saleId: accepted.saleId }, 'query');
    expect(sale).toMatchObject({ budgetId: created.budgetId, customerName: 'Vera Visitante', totalCents: 13000, attendantName: 'Bia Atendente' });
    expect(await s.c.admin.call('commerce.sales', { domain: s.d }, 'query')).toMatchObject([{ id: accepted.saleId, totalCents: 13000 }]);
    expect(await s.bia.call('commerce.conversationBudgets', { domain: s.d, conversationId }, 'query')).toMatchObject([{ id: created.budgetId, status: 'accepted', saleId: accepted.saleId }]);

    // Answered once.
    expect((await visitor.attempt('commerceView.accept', { budgetId: created.budgetId })).error).toMatchObject({ code: 'CONFLICT', message: M.alreadyAccepted });
    expect((await visitor.attempt('commerceView.decline', { budgetId: created.budgetId })).error).toMatchObject({ code: 'CONFLICT', message: M.alreadyAccepted });
    expect(await server.db.sale.count({ where: { budgetId: created.budgetId } })).toBe(1);

    // The PDFs, for both sides; nobody else.
    for (const who of [s.bia, visitor]) {
      const res = await fetch(`${server.url}/commerce/sale/${accepted.saleId}/pdf?tz=America/Sao_Paulo`, { headers: { cookie: who.cookie } });
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toBe('application/pdf');
      const text = pdfText(Buffer.from(await res.arrayBuffer()));
      expect(text).toContain('Cabo USB');
      expect(text).toContain('Total: R$ 130,00');
      expect(text).toContain('Cliente: Vera Visitante');
    }
    const budgetPdf = await fetch(`${server.url}/commerce/budget/${created.budgetId}/pdf`, { headers: { cookie: visitor.cookie } });
    expect(pdfText(Buffer.from(await budgetPdf.arrayBuffer()))).toContain('Desconto: - R$ 4,83');
    const stranger = await anonymousVisitor(server, sockets);
    expect((await fetch(`${server.url}/commerce/sale/${accepted.saleId}/pdf`, { headers: { cookie: stranger.cookie } })).status).toBe(404);
    expect((await stranger.attempt('commerceView.budget', { budgetId: created.budgetId }, 'query')).error?.code).toBe('NOT_FOUND');
    expect((await fetch(`${server.url}/commerce/budget/${created.budgetId}/pdf`)).status).toBe(401);
  });

  it('two customers racing for the last unit: one sale, and the other is told why', async () => {
    const s = await shop();
    const last = await product(s.c.admin, s.d, 'UL', 1, 9990, 'Última unidade');
    const a = await served(s, 'Ana Cliente');
    const b = await served(s, 'Beto Cliente');
    const budgetFor = async (conversationId: string) =>
      (await s.bia.call('commerce.createBudget', { domain: s.d, conversationId, items: [{ productId: last.id, quantity: 1 }], validUntil: inDays(3), send: true })).budgetId as string;
    const [ba, bb] = [await budgetFor(a.conversationId), await budgetFor(b.conversationId)];
    const results = await Promise.all([a.visitor.attempt('commerceView.accept', { budgetId: ba }), b.visitor.attempt('commerceView.accept', { budgetId: bb })]);
    const won = results.filter((r) => r.data);
    const lost = results.filter((r) => r.error);
    expect(won).toHaveLength(1);
    expect(lost).toHaveLength(1);
    expect(lost[0]!.error).toMatchObject({ code: 'CONFLICT', message: 'Estoque insuficiente: "Última unidade" esgotou' });
    expect((await server.db.product.findUniqueOrThrow({ where: { id: last.id } })).quantity).toBe(0);
    expect(await server.db.sale.count({ where: { companyId: s.c.company.id } })).toBe(1);
    // The loser's budget still waits: it can be declined, or accepted once stock is back.
    const loser = results[0]!.error ? { v: a.visitor, id: ba } : { v: b.visitor, id: bb };
    expect(await loser.v.call('commerceView.budget', { budgetId: loser.id }, 'query')).toMatchObject({ status: 'sent', canDecide: true });
    await s.c.admin.call('commerce.saveProduct', { domain: s.d, productId: last.id, code: 'UL', name: 'Última unidade', quantity: 1, priceCents: 9990 });
    expect(await loser.v.call('commerceView.accept', { budgetId: loser.id })).toMatchObject({ status: 'accepted' });
  });

  it('the same budget accepted twice at once (a double click, two tabs) makes one sale', async () => {
    const s = await shop();
    const item = await product(s.c.admin, s.d, 'P', 10, 100);
    const { visitor, conversationId } = await served(s);
    const { budgetId } = await s.bia.call('commerce.createBudget', { domain: s.d, conversationId, items: [{ productId: item.id, quantity: 2 }], validUntil: inDays(1), send: true });
    const results = await Promise.all([1, 2, 3].map(() => visitor.attempt('commerceView.accept', { budgetId })));
    expect(results.filter((r) => r.data)).toHaveLength(1);
    expect(results.filter((r) => r.error).map((r) => r.error!.message)).toEqual([M.alreadyAccepted, M.alreadyAccepted]);
    expect(await server.db.sale.count({ where: { budgetId } })).toBe(1);
    expect((await server.db.product.findUniqueOrThrow({ where: { id: item.id } })).quantity).toBe(8);
    expect(await server.db.message.count({ where: { conversationId, type: 'orcamento' } })).toBe(2); // sent + accepted
  });

  it('declining takes nothing; a draft is sent later or discarded; a budget past its validity expires', async () => {
    const s = await shop();
    const item = await product(s.c.admin, s.d, 'P', 5, 100);
    const { visitor, conversationId } = await served(s);
    const make = async (send: boolean) => (await s.bia.call('commerce.createBudget', { domain: s.d, conversationId, items: [{ productId: item.id, quantity: 2 }], validUntil: inDays(2), send })).budgetId as string;

    const declined = await make(true);
    expect(await visitor.call('commerceView.decline', { budgetId: declined })).toMatchObject({ status: 'declined', saleId: null });
    expect((await server.db.product.findUniqueOrThrow({ where: { id: item.id } })).quantity).toBe(5);
    expect((await visitor.attempt('commerceView.accept', { budgetId: declined })).error?.message).toBe(M.alreadyDeclined);

    const draft = await make(false);
    // The customer does not see a draft.
    expect((await visitor.attempt('commerceView.budget', { budgetId: draft }, 'query')).error?.code).toBe('NOT_FOUND');
    await s.bia.call('commerce.sendBudget', { domain: s.d, budgetId: draft });
    expect((await s.bia.attempt('commerce.sendBudget', { domain: s.d, budgetId: draft })).error?.message).toBe(M.notDraft);
    expect((await s.bia.attempt('commerce.discardBudget', { domain: s.d, budgetId: draft })).error?.message).toBe(M.notDraft);
    const gone = await make(false);
    await s.bia.call('commerce.discardBudget', { domain: s.d, budgetId: gone });
    expect(await server.db.budget.count({ where: { id: gone } })).toBe(0);

    await server.db.budget.update({ where: { id: draft }, data: { validUntil: new Date(Date.now() - 1000) } });
    expect(await visitor.call('commerceView.budget', { budgetId: draft }, 'query')).toMatchObject({ status: 'expired', canDecide: false });
    expect((await visitor.attempt('commerceView.accept', { budgetId: draft })).error).toMatchObject({ code: 'CONFLICT', message: M.expired });
    expect((await server.db.budget.findUniqueOrThrow({ where: { id: draft } })).status).toBe('expired');
    expect((await server.db.product.findUniqueOrThrow({ where: { id: item.id } })).quantity).toBe(5);
  });

  it('a conversation with no customer gets no budget; an attendant outside the conversation cannot make one', async () => {
    const s = await shop();
    const item = await product(s.c.admin, s.d, 'P', 5, 100);
    const { conversationId: internal } = await s.c.admin.call('chat.startDirect', { domain: s.d, userId: s.bia.userId });
    expect((await s.bia.attempt('commerce.createBudget', { domain: s.d, conversationId: internal, items: [{ productId: item.id, quantity: 1 }], validUntil: inDays(1), send: true })).error?.message).toBe(M.noCustomer);
    const { conversationId } = await served(s);
    const carla = await s.c.attendant('Carla');
    expect((await carla.attempt('commerce.createBudget', { domain: s.d, conversationId, items: [{ productId: item.id, quantity: 1 }], validUntil: inDays(1) })).error?.code).toBe('FORBIDDEN');
  });
});

describe('plan flag and tenancy', () => {
  it('without invent the catalogue and budgets are refused, by id too', async () => {
    const s = await shop();
    const item = await product(s.c.admin, s.d, 'P', 5, 100);
    const { visitor, conversationId } = await served(s);
    const { budgetId } = await s.bia.call('commerce.createBudget', { domain: s.d, conversationId, items: [{ productId: item.id, quantity: 1 }], validUntil: inDays(1), send: true });
    await server.db.company.update({ where: { id: s.c.company.id }, data: { plan: { ...(s.c.company.plan as object), invent: 0 } } });
    expect((await s.bia.attempt('commerce.products', { domain: s.d }, 'query')).error).toMatchObject({ code: 'FORBIDDEN', message: PLAN_FEATURE_MESSAGES.invent });
    expect((await visitor.attempt('commerceView.accept', { budgetId })).error).toMatchObject({ code: 'FORBIDDEN', message: PLAN_FEATURE_MESSAGES.invent });
    expect((await fetch(`${server.url}/commerce/budget/${budgetId}/pdf`, { headers: { cookie: visitor.cookie } })).status).toBe(403);
    expect((await server.db.product.findUniqueOrThrow({ where: { id: item.id } })).quantity).toBe(5);
  });

  it("another company's people reach none of it, through their own domain or by id", async () => {
    const a = await shop();
    const b = await shop();
    const item = await product(a.c.admin, a.d, 'P', 5, 100);
    const { conversationId } = await served(a);
    const { budgetId } = await a.bia.call('commerce.createBudget', { domain: a.d, conversationId, items: [{ productId: item.id, quantity: 1 }], validUntil: inDays(1) });
    const foreign = await product(b.c.admin, b.d, 'Q', 5, 100);
    // A's conversation through B's domain, B's product in A's budget, A's budget through B's domain.
    expect((await b.bia.attempt('commerce.createBudget', { domain: b.d, conversationId, items: [{ productId: foreign.id, quantity: 1 }], validUntil: inDays(1) })).error?.code).toBe('NOT_FOUND');
    expect((await a.bia.attempt('commerce.createBudget', { domain: a.d, conversationId, items: [{ productId: foreign.id, quantity: 1 }], validUntil: inDays(1) })).error?.message).toBe(M.productNotFound);
    expect((await b.c.admin.attempt('commerce.sendBudget', { domain: b.d, budgetId })).error?.code).toBe('NOT_FOUND');
    expect((await b.c.admin.attempt('commerce.discardBudget', { domain: b.d, budgetId })).error?.code).toBe('NOT_FOUND');
    expect((await b.c.admin.attempt('commerceView.budget', { budgetId }, 'query')).error?.code).toBe('NOT_FOUND');
    expect((await b.c.admin.attempt('commerce.conversationBudgets', { domain: b.d, conversationId }, 'query')).error?.code).toBe('NOT_FOUND');
    expect(await b.c.admin.call('commerce.products', { domain: b.d }, 'query')).toMatchObject([{ code: 'Q' }]);
    // A member A blocked is refused by id as well (the participant level asks the access rule).
    await server.db.member.updateMany({ where: { companyId: a.c.company.id, userId: a.bia.userId }, data: { blocked: true } });
    expect((await a.bia.attempt('commerceView.budget', { budgetId }, 'query')).error?.code).toBe('FORBIDDEN');
  });
});

describe('drafts', () => {
  it('a draft is changed (priced again from the catalogue) until it is sent; a sent budget is not', async () => {
    const s = await shop();
    const a = await product(s.c.admin, s.d, 'A', 5, 1000);
    const b = await product(s.c.admin, s.d, 'B', 5, 300);
    const { visitor, conversationId } = await served(s);
    const { budgetId } = await s.bia.call('commerce.createBudget', { domain: s.d, conversationId, items: [{ productId: a.id, quantity: 1 }], validUntil: inDays(2) });
    await s.c.admin.call('commerce.saveProduct', { domain: s.d, productId: b.id, code: 'B', name: 'Produto B', quantity: 5, priceCents: 350 });
    const changed = await s.bia.call('commerce.updateBudget', {
      domain: s.d,
      budgetId,
      items: [
        { productId: a.id, quantity: 2, discountPercent: 50 },
        { productId: b.id, quantity: 2 },
      ],
      discountCents: 100,
      validUntil: inDays(5),
      notes: 'Revisto',
    });
    expect(changed).toMatchObject({ status: 'draft', totalCents: 1000 + 700 - 100 });
    const view = await s.bia.call('commerceView.budget', { budgetId }, 'query');
    expect(view.items.map((i: any) => [i.productId, i.quantity, i.unitPriceCents, i.totalCents])).toEqual([
      [a.id, 2, 1000, 1000],
      [b.id, 2, 350, 700],
    ]);
    expect(view).toMatchObject({ notes: 'Revisto', discountCents: 100, totalCents: 1600 });
    await s.bia.call('commerce.sendBudget', { domain: s.d, budgetId });
    // The customer never sees the catalogue's ids.
    expect((await visitor.call('commerceView.budget', { budgetId }, 'query')).items.every((i: any) => i.productId === null)).toBe(true);
    const late = await s.bia.attempt('commerce.updateBudget', { domain: s.d, budgetId, items: [{ productId: a.id, quantity: 1 }], validUntil: inDays(1) });
    expect(late.error).toMatchObject({ code: 'CONFLICT', message: M.notDraft });
    expect(await server.db.budgetItem.count({ where: { budgetId } })).toBe(2);
    const other = await shop();
    expect((await other.c.admin.attempt('commerce.updateBudget', { domain: other.d, budgetId, items: [{ productId: a.id, quantity: 1 }], validUntil: inDays(1) })).error?.code).toBe('NOT_FOUND');
  });
});
