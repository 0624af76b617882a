import { io as connect, type Socket } from 'socket.io-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { requirePermission } from '../../src/server/modules/profiles/permissions';
import { DEFAULT_GREETING, DEFAULT_PLAN, NEW_COMPANY_STORAGE_BYTES } from '../../src/shared/constants';
import type { ClientToServerEvents, ServerToClientEvents } from '../../src/shared/realtime';
import { addMember, createCompany, createUser, signIn } from '../helpers/fixtures';
import { startTestServer, type TestServer } from '../helpers/server';
import { startSmtpServer } from '../helpers/smtp';
import { callProcedure } from '../helpers/trpc';

let server: TestServer;
let smtp: Awaited<ReturnType<typeof startSmtpServer>>;
const sockets: Socket[] = [];
let n = 0;
const uniq = () => `${Date.now().toString(36).slice(-5)}${++n}`;
const domain = () => `d${uniq()}`;

beforeAll(async () => {
  smtp = await startSmtpServer({ reject: /^bounce/ });
  server = await startTestServer({ env: { SMTP_URL: smtp.url, NEW_COMPANY_BONUS: '25' } });
});
afterAll(async () => {
  for (const s of sockets) s.disconnect();
  await server?.close();
  await smtp?.close();
});

const q = (path: string, input: unknown, cookie?: string) => callProcedure(server.url, path, input, { cookie, type: 'query' });
const mut = (path: string, input: unknown, cookie?: string) => callProcedure(server.url, path, input, { cookie, type: 'mutation' });

async function signedInUser(data: { anonymous?: boolean } = {}) {
  const user = data.anonymous ? await server.db.user.create({ data: { anonymous: true } }) : await createUser(server.db);
  return { user, cookie: await signIn(server.db, user.id) };
}

/** A registered company through the real procedure, with its admin. */
async function registered(name = `Company ${uniq()}`) {
  const admin = await signedInUser();
  const d = domain();
  const res = await mut('company.register', { domain: d, name, language: 'pt' }, admin.cookie);
  expect(res.error).toBeUndefined();
  const company = await server.db.company.findUniqueOrThrow({ where: { domain: d } });
  return { ...admin, domain: d, company };
}

function openSocket(cookie: string): Promise<Socket<ServerToClientEvents, ClientToServerEvents>> {
  const socket: Socket<ServerToClientEvents, ClientToServerEvents> = connect(server.url, {
    path: '/socket.io',
    transports: ['websocket'],
    extraHeaders: { cookie },
    reconnection: false,
  });
  sockets.push(socket);
  return new Promise((resolve, reject) => {
    socket.once('session:ready', () => resolve(socket));
    socket.once('connect_error', reject);
  });
}

describe('company.checkDomain', () => {
  it('answers available for a free domain and "Domain unavailable" for a taken or reserved one', async () => {
    const { domain: taken } = await registered();
    expect((await q('company.checkDomain', { domain: domain() })).data).toEqual({ available: true });
    for (const d of [taken, 'files', 'trpc']) {
      const res = await q('company.checkDomain', { domain: d });
      expect(res.error, d).toMatchObject({ code: 'CONFLICT', message: 'Domain unavailable' });
    }
  });

  it('refuses a malformed domain before looking anything up', async () => {
    const res = await q('company.checkDomain', { domain: 'Bad Domain' });
    expect(res.status).toBe(400);
  });
});

describe('company.register', () => {
  it('creates the company and everything it starts with, and reports each step to the creator', async () => {
    const { user, cookie } = await signedInUser();
    const socket = await openSocket(cookie);
    const steps: string[] = [];
    socket.on('company:registration', (p) => steps.push(p.step));
    const d = domain();
    const name = `Acme ${uniq()}`;

    const res = await mut('company.register', { domain: d, name, bio: 'We help', language: 'pt' }, cookie);
    expect(res.error).toBeUndefined();
    expect(res.data).toEqual({ domain: d, name });

    const company = await server.db.company.findUniqueOrThrow({
      where: { domain: d },
      include: { members: true, groups: true, queues: { include: { groups: true } }, profiles: true },
    });
    expect(company.credits.toNumber()).toBe(25);
    expect(company.plan).toEqual(DEFAULT_PLAN);
    expect(company.storageBytes).toBe(BigInt(NEW_COMPANY_STORAGE_BYTES));
    expect(company.settings).toEqual({ greeting: DEFAULT_GREETING, language: 'pt' });
    expect(company.bio).toBe('We help');
    expect(company.creatorId).toBe(user.id);
    expect(company.members).toEqual([
      expect.objectContaining({ userId: user.id, isAdmin: true, profile: 'A01', inviteAccepted: true, blocked: false, removed: false, joinedAt: expect.any(Date) }),
    ]);
    expect(company.groups.map((g) => g.key).sort()).toEqual(['admin', 'member']);
    expect(company.queues).toHaveLength(1);
    const queue = company.queues[0]!;
    expect(queue).toMatchObject({ key: 'faleconosco', name: 'Fale Conosco', active: true, slaServiceTime: 1 });
    expect(queue.groups.map((g) => g.groupId).sort()).toEqual(company.groups.map((g) => g.id).sort());
    expect(await server.db.groupMember.count({ where: { memberId: company.members[0]!.id } })).toBe(2);
    const profiles = Object.fromEntries(company.profiles.map((p) => [p.code, p]));
    expect(Object.keys(profiles).sort()).toEqual(['A01', 'M01']);
    // Built-in profiles list no queues: their members serve every queue.
    expect(profiles.A01).toMatchObject({ type: 'admin', queueIds: [] });
    expect(profiles.M01).toMatchObject({ queueIds: [] });
    expect(Object.values(profiles.A01!.permissions as object).every(Boolean)).toBe(true);
    expect(profiles.M01).toMatchObject({ type: 'internal', permissions: expect.objectContaining({ viewReports: false, createService: true }) });
    expect(company.contactUs).toMatchObject({ pageTitle: name, blocked: false, defaultQueueKey: 'faleconosco' });
    expect((await server.db.user.findUniqueOrThrow({ where: { id: user.id } })).defaultCompanyId).toBe(company.id);

    await expect.poll(() => steps).toEqual([
      'creatingCompany',
      'registeringInDatabase',
      'registeringQueues',
      'creatingProfiles',
      'buildingContactUs',
      'allReady',
    ]);
    // The creator is a working admin of the new company.
    expect((await q('company.current', { domain: d }, cookie)).data).toMatchObject({ domain: d, me: { isAdmin: true, profile: 'A01' }, blocked: null });
  });

  it("writes the company's starting texts in the admin's language, editable afterwards", async () => {
    const user = await createUser(server.db, { name: 'Dora Admin' });
    const cookie = await signIn(server.db, user.id);
    const d = domain();
    expect((await mut('company.register', { domain: d, name: `Firma ${d}`, language: 'de' }, cookie)).error).toBeUndefined();
    const company = await server.db.company.findUniqueOrThrow({ where: { domain: d }, include: { groups: true, queues: true, profiles: true } });
    expect(company.settings).toEqual({ greeting: expect.stringMatching(/^Hallo \[nomecliente\], willkommen beim Kundenservice von \[nomeempresa\]/), language: 'de' });
    expect(company.queues.map((q) => [q.key, q.name])).toEqual([['faleconosco', 'Kontakt']]);
    expect(Object.fromEntries(company.profiles.map((p) => [p.code, p.name]))).toEqual({ A01: 'Administrator', M01: 'Mitglied' });
    expect((company.contactUs as { name: string; fields: { label: string }[] }).fields.map((f) => f.label)).toEqual(['Name', 'E-Mail', 'Telefon', 'Nachricht']);
    expect((company.contactUs as { name: string }).name).toBe('Kontakt');
    expect((await q('settings.greeting', { domain: d }, cookie)).data).toEqual({ greeting: expect.stringContaining('Bitte warten Sie einen Moment') });
    // Still editable.
    expect((await mut('settings.updateGreeting', { domain: d, greeting: 'Guten Tag [nomecliente]!' }, cookie)).data).toEqual({ greeting: 'Guten Tag [nomecliente]!' });

    // No language given: the account's language, else English (the product's default).
    const other = await createUser(server.db, { name: 'Eli Admin' });
    const e = domain();
    expect((await mut('company.register', { domain: e, name: `Co ${e}` }, await signIn(server.db, other.id))).error).toBeUndefined();
    const english = await server.db.company.findUniqueOrThrow({ where: { domain: e }, include: { queues: true } });
    expect(english.queues[0]!.name).toBe('Contact Us');
    expect(english.settings).toMatchObject({ language: 'en', greeting: expect.stringMatching(/^Hello \[nomecliente\]/) });
    await server.db.user.update({ where: { id: other.id }, data: { language: 'es' } });
    const f = domain();
    expect((await mut('company.register', { domain: f, name: `Co ${f}` }, await signIn(server.db, other.id))).error).toBeUndefined();
    expect((await server.db.queue.findFirstOrThrow({ where: { company: { domain: f } } })).name).toBe('Contáctanos');
  });

  it('refuses anonymous and signed-out callers', async () => {
    const anon = await signedInUser({ anonymous: true });
    expect((await mut('company.register', { domain: domain(), name: `X ${uniq()}` }, anon.cookie)).error).toMatchObject({ code: 'UNAUTHORIZED' });
    expect((await mut('company.register', { domain: domain(), name: `X ${uniq()}` })).error).toMatchObject({ code: 'UNAUTHORIZED' });
  });

  it('answers "Domain unavailable" and "Name unavailable" (whatever the case) and writes nothing', async () => {
    const { domain: d, company } = await registered(`Taken ${uniq()}`);
    const { cookie } = await signedInUser();
    const before = await server.db.company.count();
    expect((await mut('company.register', { domain: d, name: `Other ${uniq()}` }, cookie)).error).toMatchObject({ code: 'CONFLICT', message: 'Domain unavailable' });
    expect((await mut('company.register', { domain: domain(), name: ` ${company.name.toUpperCase()} ` }, cookie)).error).toMatchObject({
      code: 'CONFLICT',
      message: 'Name unavailable',
    });
    expect((await mut('company.register', { domain: 'metrics', name: `Other ${uniq()}` }, cookie)).error).toMatchObject({ message: 'Domain unavailable' });
    expect(await server.db.company.count()).toBe(before);
  });

  it('leaves nothing behind when a step fails half-way', async () => {
    const { user, cookie } = await signedInUser();
    const name = `Broken ${uniq()}`;
    const d = domain();
    // A real failure inside the transaction, after the company, member, groups and queue exist.
    await server.db.$executeRawUnsafe(`
      CREATE OR REPLACE FUNCTION fail_profiles() RETURNS trigger AS $$
      BEGIN
        IF (SELECT name FROM "Company" WHERE id = NEW."companyId") LIKE 'Broken %' THEN RAISE EXCEPTION 'forced failure'; END IF;
        RETURN NEW;
      END $$ LANGUAGE plpgsql`);
    await server.db.$executeRawUnsafe(`CREATE TRIGGER fail_profiles BEFORE INSERT ON "Profile" FOR EACH ROW EXECUTE FUNCTION fail_profiles()`);
    const counts = () =>
      Promise.all([server.db.company.count(), server.db.member.count(), server.db.group.count(), server.db.queue.count(), server.db.profile.count(), server.db.queueGroup.count()]);
    const before = await counts();
    try {
      const res = await mut('company.register', { domain: d, name }, cookie);
      expect(res.error).toMatchObject({ code: 'INTERNAL_SERVER_ERROR' });
      expect(res.error?.message).toBe('The company could not be created. Please try again.');
      expect(res.raw).not.toContain('forced failure');
    } finally {
      await server.db.$executeRawUnsafe(`DROP TRIGGER fail_profiles ON "Profile"`);
    }
    expect(await counts()).toEqual(before);
    expect(await server.db.company.findUnique({ where: { domain: d } })).toBeNull();
    expect((await server.db.user.findUniqueOrThrow({ where: { id: user.id } })).defaultCompanyId).toBeNull();
    // And the same request works once the cause is gone.
    expect((await mut('company.register', { domain: d, name }, cookie)).error).toBeUndefined();
  });

  it('lets exactly one of several simultaneous registrations of one name (any case) win', async () => {
    const base = `Race ${uniq()}`;
    const callers = await Promise.all([0, 1, 2, 3].map(() => signedInUser()));
    const results = await Promise.all(
      callers.map((c, i) => mut('company.register', { domain: domain(), name: i % 2 ? base.toUpperCase() : base }, c.cookie)),
    );
    expect(results.filter((r) => !r.error)).toHaveLength(1);
    expect(results.filter((r) => r.error?.message === 'Name unavailable')).toHaveLength(3);
    expect(await server.db.company.count({ where: { name: { equals: base, mode: 'insensitive' } } })).toBe(1);
  });
});

describe('company.mine and company.select', () => {
  it("lists the user's companies with their state and switches the default", async () => {
    const first = await registered();
    const second = await mut('company.register', { domain: domain(), name: `Second ${uniq()}` }, first.cookie);
    const other = await registered();
    await addMember(server.db, other.company.id, first.user.id, { inviteAccepted: false });

    const mine = (await q('company.mine', undefined, first.cookie)).data as { domain: string; state: string; isAdmin: boolean; isDefault: boolean }[];
    expect(mine).toEqual([
      expect.objectContaining({ domain: first.domain, state: 'active', isAdmin: true, isDefault: false }),
      expect.objectContaining({ domain: (second.data as { domain: string }).domain, state: 'active', isDefault: true }),
      expect.objectContaining({ domain: other.domain, state: 'waiting', isAdmin: false, isDefault: false }),
    ]);

    expect((await mut('company.select', { domain: first.domain }, first.cookie)).data).toEqual({ domain: first.domain });
    expect((await server.db.user.findUniqueOrThrow({ where: { id: first.user.id } })).defaultCompanyId).toBe(first.company.id);
    // Not accepted yet: cannot make it the default.
    expect((await mut('company.select', { domain: other.domain }, first.cookie)).error).toMatchObject({ code: 'FORBIDDEN', data: { access: 'notAccepted' } });
  });
});

describe('company.current: plan state and permissions', () => {
  it('reports a blocked plan or a deactivated company, and only admins may work', async () => {
    const { company, cookie, domain: d } = await registered();
    const plain = await signedInUser();
    await addMember(server.db, company.id, plain.user.id);

    expect((await q('company.current', { domain: d }, plain.cookie)).data).toMatchObject({
      blocked: null,
      onlyAdmins: false,
      canWork: true,
      me: { isAdmin: false, profile: 'M01', permissions: { createService: true, viewReports: false } },
    });

    await server.db.company.update({ where: { id: company.id }, data: { planBlocked: true } });
    expect((await q('company.current', { domain: d }, plain.cookie)).data).toMatchObject({ blocked: { reason: 'planBlocked' }, onlyAdmins: true, canWork: false });
    expect((await q('company.current', { domain: d }, cookie)).data).toMatchObject({ blocked: { reason: 'planBlocked' }, onlyAdmins: true, canWork: true });

    await server.db.company.update({ where: { id: company.id }, data: { billingExempt: true } });
    expect((await q('company.current', { domain: d }, plain.cookie)).data).toMatchObject({ blocked: null, canWork: true });

    await server.db.company.update({ where: { id: company.id }, data: { deactivated: true } });
    expect((await q('company.current', { domain: d }, plain.cookie)).data).toMatchObject({ blocked: { reason: 'deactivated' }, canWork: false });
  });

  it('requirePermission reads the member profile; admins pass everything', async () => {
    const { company } = await registered();
    const plain = await signedInUser();
    const member = await addMember(server.db, company.id, plain.user.id);
    const admin = await server.db.member.findFirstOrThrow({ where: { companyId: company.id, isAdmin: true } });
    const ctx = (m: typeof member) => ({ db: server.db, company, member: m });

    await expect(requirePermission(ctx(member), 'createService')).resolves.toBeUndefined();
    await expect(requirePermission(ctx(member), 'viewReports')).rejects.toMatchObject({ code: 'FORBIDDEN', message: 'Your profile does not allow this' });
    await expect(requirePermission(ctx(admin), 'viewReports')).resolves.toBeUndefined();
    // A profile code that does not exist (any more) allows nothing.
    await expect(requirePermission(ctx({ ...member, profile: 'Z99' }), 'createService')).rejects.toMatchObject({ code: 'FORBIDDEN' });
  });
});

describe('company settings', () => {
  it('updates the public page, dropping empty social values, and keeps names unique', async () => {
    const a = await registered();
    const b = await registered();
    const res = await mut(
      'settings.updatePublicPage',
      { domain: a.domain, name: `Renamed ${uniq()}`, bio: 'New bio', website: 'https://acme.test', socialNetworks: { instagram: '@acme', facebook: '', x: '   ' } },
      a.cookie,
    );
    expect(res.error).toBeUndefined();
    expect(res.data).toMatchObject({ bio: 'New bio', website: 'https://acme.test', socialNetworks: { instagram: '@acme' } });
    expect((await server.db.company.findUniqueOrThrow({ where: { id: a.company.id } })).socialNetworks).toEqual({ instagram: '@acme' });

    const clash = await mut('settings.updatePublicPage', { domain: a.domain, name: b.company.name.toLowerCase(), bio: '', socialNetworks: {} }, a.cookie);
    expect(clash.error).toMatchObject({ code: 'CONFLICT', message: 'Name unavailable' });
    // Keeping its own name is not a clash.
    const same = (res.data as { name: string }).name;
    expect((await mut('settings.updatePublicPage', { domain: a.domain, name: same.toUpperCase(), bio: '', socialNetworks: {} }, a.cookie)).error).toBeUndefined();
  });

  it('reads and changes the greeting without touching other settings', async () => {
    const a = await registered();
    await server.db.company.update({ where: { id: a.company.id }, data: { settings: { greeting: DEFAULT_GREETING, other: 1 } } });
    expect((await q('settings.greeting', { domain: a.domain }, a.cookie)).data).toEqual({ greeting: DEFAULT_GREETING });
    expect((await mut('settings.updateGreeting', { domain: a.domain, greeting: 'Olá [nomecliente]!' }, a.cookie)).data).toEqual({ greeting: 'Olá [nomecliente]!' });
    expect((await server.db.company.findUniqueOrThrow({ where: { id: a.company.id } })).settings).toEqual({ greeting: 'Olá [nomecliente]!', other: 1 });
    expect((await mut('settings.updateGreeting', { domain: a.domain, greeting: '  ' }, a.cookie)).error?.message).toContain('Fill in all fields');
  });

  it('shows the company account: credits, plan, storage', async () => {
    const a = await registered();
    expect((await q('settings.companyAccount', { domain: a.domain }, a.cookie)).data).toEqual({
      credits: 25,
      plan: DEFAULT_PLAN,
      storage: { bytes: NEW_COMPANY_STORAGE_BYTES, planGb: 1 },
      planBlocked: false,
      billingExempt: false,
      deactivated: false,
      blocked: null,
    });
  });

  it('reads and saves Contact Us; the default queue must exist', async () => {
    const a = await registered();
    const current = (await q('settings.contactUs', { domain: a.domain }, a.cookie)).data as Record<string, unknown>;
    expect(current).toMatchObject({ defaultQueueKey: 'faleconosco', fields: expect.any(Array) });
    const next = { ...current, blocked: true, pageTitle: 'Talk to us' };
    expect((await mut('settings.updateContactUs', { domain: a.domain, ...next }, a.cookie)).data).toMatchObject({ blocked: true, pageTitle: 'Talk to us' });
    expect((await q('settings.contactUs', { domain: a.domain }, a.cookie)).data).toMatchObject({ blocked: true });
    expect((await mut('settings.updateContactUs', { domain: a.domain, ...next, defaultQueueKey: 'nope' }, a.cookie)).error).toMatchObject({ code: 'NOT_FOUND' });
  });

  it('is for admins only', async () => {
    const a = await registered();
    const plain = await signedInUser();
    await addMember(server.db, a.company.id, plain.user.id);
    for (const path of ['settings.companyAccount', 'settings.contactUs', 'profiles.list', 'additionalFields.list', 'clients.list', 'members.list']) {
      expect((await q(path, { domain: a.domain }, plain.cookie)).error, path).toMatchObject({ code: 'FORBIDDEN', message: 'Only administrators can do this' });
    }
  });
});

describe('profiles', () => {
  const perms = { createService: true, integrateSingleService: false, serveContactUs: true, addContacts: false, editContacts: false, viewReports: true, voiceCall: false, sendAudio: true };

  it('creates, lists, updates and deletes; in use or built-in cannot be deleted', async () => {
    const a = await registered();
    const queue = await server.db.queue.findFirstOrThrow({ where: { companyId: a.company.id } });
    const created = await mut('profiles.create', { domain: a.domain, name: 'Supervisor', type: 'internal', queueIds: [queue.id], permissions: perms, reportProfiles: ['M01'] }, a.cookie);
    expect(created.data).toMatchObject({ code: 'P01', name: 'Supervisor', permissions: perms, queueIds: [queue.id], reportProfiles: ['M01'], builtIn: false });
    const id = (created.data as { id: string }).id;

    expect((await mut('profiles.update', { domain: a.domain, profileId: id, name: 'Lead', permissions: { ...perms, voiceCall: true } }, a.cookie)).data).toMatchObject({
      name: 'Lead',
      permissions: { voiceCall: true },
    });
    // Exactly the eight booleans: an unknown permission is refused.
    expect((await mut('profiles.create', { domain: a.domain, name: 'X', type: 'internal', permissions: { ...perms, fly: true } }, a.cookie)).status).toBe(400);

    const plain = await signedInUser();
    const member = await addMember(server.db, a.company.id, plain.user.id);
    expect((await mut('members.setProfile', { domain: a.domain, memberId: member.id, profileCode: 'P01' }, a.cookie)).data).toMatchObject({ profile: 'P01', isAdmin: false });
    // The member's permissions now follow P01.
    expect((await q('company.current', { domain: a.domain }, plain.cookie)).data).toMatchObject({ me: { permissions: { viewReports: true, voiceCall: true, addContacts: false } } });

    const list = (await q('profiles.list', { domain: a.domain }, a.cookie)).data as { code: string; membersUsing: number }[];
    expect(list.map((p) => [p.code, p.membersUsing])).toEqual([['A01', 1], ['M01', 0], ['P01', 1]]);

    expect((await mut('profiles.delete', { domain: a.domain, profileId: id }, a.cookie)).error).toMatchObject({ message: 'You cannot delete this profile as it is in use!' });
    expect((await mut('profiles.update', { domain: a.domain, profileId: id, type: 'admin' }, a.cookie)).error).toMatchObject({ message: 'You cannot change the type of a profile in use' });
    const m01 = await server.db.profile.findFirstOrThrow({ where: { companyId: a.company.id, code: 'M01' } });
    expect((await mut('profiles.delete', { domain: a.domain, profileId: m01.id }, a.cookie)).error).toMatchObject({ code: 'BAD_REQUEST' });

    await mut('members.setProfile', { domain: a.domain, memberId: member.id, profileCode: 'M01' }, a.cookie);
    expect((await mut('profiles.delete', { domain: a.domain, profileId: id }, a.cookie)).data).toEqual({ ok: true });
    expect(await server.db.profile.count({ where: { id } })).toBe(0);
  });

  it("refuses another company's profile and queue ids", async () => {
    const a = await registered();
    const b = await registered();
    const bProfile = await server.db.profile.findFirstOrThrow({ where: { companyId: b.company.id, code: 'M01' } });
    const bQueue = await server.db.queue.findFirstOrThrow({ where: { companyId: b.company.id } });
    expect((await mut('profiles.update', { domain: a.domain, profileId: bProfile.id, name: 'Hacked' }, a.cookie)).error).toMatchObject({ code: 'NOT_FOUND' });
    expect((await mut('profiles.delete', { domain: a.domain, profileId: bProfile.id }, a.cookie)).error).toMatchObject({ code: 'NOT_FOUND' });
    expect((await mut('profiles.create', { domain: a.domain, name: 'X', type: 'internal', queueIds: [bQueue.id], permissions: perms }, a.cookie)).error).toMatchObject({ code: 'NOT_FOUND' });
    expect((await server.db.profile.findUniqueOrThrow({ where: { id: bProfile.id } })).name).toBe('Membro');
  });
});

describe('additional fields', () => {
  it('creates, updates, lists and deletes; a multiple-choice field needs options; TAGs are unique', async () => {
    const a = await registered();
    const created = await mut('additionalFields.create', { domain: a.domain, name: 'Plan', tag: 'PLAN', multipleChoice: true, options: ['Gold', 'Silver'] }, a.cookie);
    expect(created.data).toMatchObject({ name: 'Plan', tag: 'PLAN', multipleChoice: true, options: ['Gold', 'Silver'] });
    const id = (created.data as { id: string }).id;
    expect((await mut('additionalFields.create', { domain: a.domain, name: 'Tier', tag: 'TIER', multipleChoice: true, options: [] }, a.cookie)).error?.message).toContain(
      'A multiple-choice field needs at least one option',
    );
    expect((await mut('additionalFields.create', { domain: a.domain, name: 'Dup', tag: 'PLAN' }, a.cookie)).error).toMatchObject({ code: 'CONFLICT', message: 'This TAG is already in use' });
    expect((await mut('additionalFields.update', { domain: a.domain, fieldId: id, name: 'Contract', tag: 'CONTRACT', multipleChoice: false, options: ['ignored'] }, a.cookie)).data).toMatchObject({
      name: 'Contract',
      multipleChoice: false,
      options: [],
    });
    expect((await q('additionalFields.list', { domain: a.domain }, a.cookie)).data).toEqual([expect.objectContaining({ id, tag: 'CONTRACT' })]);

    const b = await registered();
    expect((await mut('additionalFields.delete', { domain: b.domain, fieldId: id }, b.cookie)).error).toMatchObject({ code: 'NOT_FOUND' });
    expect((await mut('additionalFields.delete', { domain: a.domain, fieldId: id }, a.cookie)).data).toEqual({ ok: true });
  });
});

describe('client companies', () => {
  it('invites by e-mail once per domain, the client admin accepts, the inviter removes', async () => {
    const origin = await registered();
    const client = await registered();
    const email = `client-${uniq()}@example.test`;

    const res = await mut('clients.invite', { domain: origin.domain, clientDomain: client.domain, email }, origin.cookie);
    expect(res.data).toEqual({ alreadyClient: false, sentTo: email });
    const mail = await smtp.next(email);
    expect(mail.subject).toContain(client.domain);
    expect(mail.link).toContain(`/i/settings/companyCostumers/clientsViewer?origin=${origin.domain}`);
    // Inviting again refreshes the one link.
    await mut('clients.invite', { domain: origin.domain, clientDomain: client.domain, email }, origin.cookie);
    await smtp.next(email);
    expect(await server.db.clientCompanyLink.count({ where: { companyId: origin.company.id } })).toBe(1);

    expect((await q('clients.invitations', { domain: client.domain }, client.cookie)).data).toEqual([
      expect.objectContaining({ originDomain: origin.domain, accepted: false }),
    ]);
    // Only the invited company can accept: the inviter naming itself finds nothing.
    expect((await mut('clients.accept', { domain: origin.domain, originDomain: origin.domain }, origin.cookie)).error).toMatchObject({ code: 'NOT_FOUND' });
    expect((await mut('clients.accept', { domain: client.domain, originDomain: origin.domain }, client.cookie)).data).toMatchObject({ accepted: true });
    expect((await q('clients.list', { domain: origin.domain }, origin.cookie)).data).toEqual([
      expect.objectContaining({ clientDomain: client.domain, name: client.company.name, accepted: true }),
    ]);
    // An accepted client short-circuits: no second mail.
    expect((await mut('clients.invite', { domain: origin.domain, clientDomain: client.domain, email }, origin.cookie)).data).toEqual({ alreadyClient: true, sentTo: null });

    expect((await mut('clients.remove', { domain: origin.domain, clientDomain: client.domain }, origin.cookie)).data).toEqual({ ok: true });
    expect(await server.db.clientCompanyLink.count({ where: { companyId: origin.company.id } })).toBe(0);
    expect((await mut('clients.remove', { domain: origin.domain, clientDomain: client.domain }, origin.cookie)).error).toMatchObject({ code: 'NOT_FOUND' });
  });

  it('refuses the company itself and reports a mail failure with the spec text', async () => {
    const origin = await registered();
    expect((await mut('clients.invite', { domain: origin.domain, clientDomain: origin.domain, email: 'a@example.test' }, origin.cookie)).error).toMatchObject({ code: 'BAD_REQUEST' });
    const email = `bounce-${uniq()}@example.test`;
    const res = await mut('clients.invite', { domain: origin.domain, clientDomain: domain(), email }, origin.cookie);
    expect(res.error).toMatchObject({ message: `Não foi possivel enviar o e-mail para ${email}` });
  });
});

it('fixtures companies (no registration) still work with the new procedures', async () => {
  const creator = await createUser(server.db);
  const company = await createCompany(server.db, creator.id);
  const cookie = await signIn(server.db, creator.id);
  // Created before Contact Us existed: defaults are served.
  expect((await q('settings.contactUs', { domain: company.domain }, cookie)).data).toMatchObject({ defaultQueueKey: 'faleconosco' });
  expect((await q('company.current', { domain: company.domain }, cookie)).data).toMatchObject({ me: { isAdmin: true } });
});
