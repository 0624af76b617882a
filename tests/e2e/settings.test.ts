/**
 * Company settings in the browser: an admin manages members (approve, admin on/off, block),
 * profiles, the public page (with the save-changes confirmation) and e-mail invitations, against
 * the real server, database and a real SMTP server.
 */
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser } from '../helpers/browser';
import { addMember, createUser, signIn } from '../helpers/fixtures';
import { startTestServer, type TestServer } from '../helpers/server';
import { startSmtpServer } from '../helpers/smtp';
import { callProcedure } from '../helpers/trpc';

let server: TestServer;
let browser: Browser;
let smtp: Awaited<ReturnType<typeof startSmtpServer>>;
let n = 0;
const uniq = () => `${Date.now().toString(36).slice(-6)}${++n}`;

beforeAll(async () => {
  smtp = await startSmtpServer({ reject: /^bounce/ });
  [server, browser] = await Promise.all([startTestServer({ env: { SMTP_URL: smtp.url } }), launchBrowser()]);
});
afterAll(async () => {
  await browser?.close();
  await server?.close();
  await smtp?.close();
});

const mutate = (path: string, input: unknown, cookie: string) => callProcedure(server.url, path, input, { cookie, type: 'mutation' });

/** A company registered through the real procedure by a new admin, and the admin's browser page. */
async function adminOfNewCompany(): Promise<{ page: Page; domain: string; companyId: string; adminId: string; close: () => Promise<void> }> {
  const admin = await createUser(server.db, { name: 'Ana Admin' });
  const cookie = await signIn(server.db, admin.id);
  const domain = `s${uniq()}`;
  const res = await mutate('company.register', { domain, name: `Company ${domain}`, language: 'pt' }, cookie);
  expect(res.error).toBeUndefined();
  const company = await server.db.company.findUniqueOrThrow({ where: { domain } });
  const context = await browser.newContext({ locale: 'en-US' });
  const [name, value] = cookie.split('=') as [string, string];
  await context.addCookies([{ name, value, url: server.url }]);
  const page = await context.newPage();
  return { page, domain, companyId: company.id, adminId: admin.id, close: () => context.close() };
}

const memberOf = (companyId: string, userId: string) => server.db.member.findUniqueOrThrow({ where: { companyId_userId: { companyId, userId } } });

describe('members', () => {
  it('approves a waiting member, toggles admin, blocks and unblocks, refuses to drop the last admin', async () => {
    const { page, domain, companyId, adminId, close } = await adminOfNewCompany();
    const bruno = await createUser(server.db, { name: 'Bruno Lima' });
    const joined = await mutate('company.join', { domain }, await signIn(server.db, bruno.id));
    expect(joined.data).toEqual({ state: 'waiting' });

    await page.goto(`${server.url}/i/settings/members`);
    await page.getByText('1 person is waiting for approval.').waitFor();
    await page.getByLabel('State').selectOption('waiting');
    const row = page.getByRole('row').filter({ hasText: 'Bruno Lima' });
    await row.getByText('Waiting approval').waitFor();
    expect(await page.getByRole('row').filter({ hasText: 'Ana Admin' }).count()).toBe(0);
    await row.getByRole('link', { name: 'Bruno Lima' }).click();

    await page.getByRole('button', { name: 'Approve' }).click();
    await page.getByText('Request approved.').waitFor();
    expect((await memberOf(companyId, bruno.id)).inviteAccepted).toBe(true);

    await page.getByRole('button', { name: 'Make admin' }).click();
    await page.getByRole('button', { name: 'Remove admin' }).waitFor();
    expect(await memberOf(companyId, bruno.id)).toMatchObject({ isAdmin: true, profile: 'A01' });
    await page.getByRole('button', { name: 'Remove admin' }).click();
    await page.getByRole('button', { name: 'Make admin' }).waitFor();
    expect(await memberOf(companyId, bruno.id)).toMatchObject({ isAdmin: false, profile: 'M01' });

    await page.getByRole('button', { name: 'Block' }).click();
    await page.getByRole('button', { name: 'Unblock' }).waitFor();
    expect((await memberOf(companyId, bruno.id)).blocked).toBe(true);
    await page.getByRole('button', { name: 'Unblock' }).click();
    await page.getByText('Member unblocked.').waitFor();
    expect(await memberOf(companyId, bruno.id)).toMatchObject({ blocked: false, inviteAccepted: true });

    // The only admin cannot give up the role: the server's refusal is shown.
    const me = await memberOf(companyId, adminId);
    await page.goto(`${server.url}/i/settings/members/${me.id}`);
    await page.getByRole('button', { name: 'Remove admin' }).click();
    await page.getByRole('alert').filter({ hasText: 'The company needs at least one administrator' }).waitFor();
    expect((await memberOf(companyId, adminId)).isAdmin).toBe(true);
    await close();
  });
});

describe('member groups', () => {
  it("offers every group of the company (from groups.list, empty ones too) and saves the member's", async () => {
    const { page, domain, companyId, adminId, close } = await adminOfNewCompany();
    const cookie = await signIn(server.db, adminId);
    const created = await mutate('groups.create', { domain, name: 'Night shift' }, cookie);
    expect(created.error).toBeUndefined();
    const dora = await createUser(server.db, { name: 'Dora Reis' });
    const doraMember = await addMember(server.db, companyId, dora.id);

    await page.goto(`${server.url}/i/settings/members/${doraMember.id}`);
    const night = page.getByRole('checkbox', { name: 'Night shift' });
    await night.click();
    await page.getByRole('button', { name: 'Save' }).click();
    await expect
      .poll(async () => (await server.db.groupMember.findMany({ where: { memberId: doraMember.id }, include: { group: true } })).map((g) => g.group.name))
      .toEqual(['Night shift']);
    await close();
  });
});

describe('profiles', () => {
  it('creates a profile with two permissions, assigns it, and cannot delete it while in use', async () => {
    const { page, companyId, close } = await adminOfNewCompany();
    const carla = await createUser(server.db, { name: 'Carla Dias' });
    const carlaMember = await addMember(server.db, companyId, carla.id);

    await page.goto(`${server.url}/i/settings/members`);
    await page.getByRole('button', { name: 'New profile' }).click();
    await page.getByLabel('Profile name').fill('Support');
    await page.getByLabel('Add contacts').check();
    await page.getByLabel('Make voice calls').check();
    // Restricted to the default queue (Profile.queues).
    await page.getByRole('checkbox', { name: 'Fale Conosco' }).check();
    await page.getByRole('button', { name: 'Create profile' }).click();
    await page.getByText('Profile Support created.').waitFor();
    const profile = await server.db.profile.findFirstOrThrow({ where: { companyId, name: 'Support' } });
    expect(profile.type).toBe('internal');
    const defaultQueue = await server.db.queue.findFirstOrThrow({ where: { companyId, key: 'faleconosco' } });
    expect(profile.queueIds).toEqual([defaultQueue.id]);
    expect(Object.entries(profile.permissions as Record<string, boolean>).filter(([, on]) => on).map(([k]) => k).sort()).toEqual(['addContacts', 'voiceCall']);

    await page.getByRole('link', { name: 'Carla Dias' }).click();
    await page.getByLabel('Profile', { exact: true }).selectOption(profile.code);
    await page.getByRole('button', { name: 'Save' }).click();
    await page.getByText('Changes saved successfully!').waitFor();
    expect((await server.db.member.findUniqueOrThrow({ where: { id: carlaMember.id } })).profile).toBe(profile.code);

    await page.getByRole('link', { name: 'Back to members' }).click();
    await page.getByRole('button', { name: 'Delete Support' }).click();
    await page.getByRole('alert').filter({ hasText: 'You cannot delete this profile as it is in use!' }).waitFor();
    expect(await server.db.profile.count({ where: { id: profile.id } })).toBe(1);
    await close();
  });
});

describe('company public page', () => {
  it('drops an emptied social network on save, and asks to save before leaving with edits', async () => {
    const { page, companyId, close } = await adminOfNewCompany();
    await server.db.company.update({ where: { id: companyId }, data: { socialNetworks: { facebook: 'acme.fb' } } });

    await page.goto(`${server.url}/i/settings/configCompany/edit_page`);
    await page.getByLabel('Bio').fill('We fix things.');
    await page.getByLabel('Facebook').fill('');
    await page.getByLabel('Instagram').fill('@acme');
    await page.getByRole('button', { name: 'Save' }).click();
    await page.getByText('Changes saved successfully!').waitFor();
    const saved = await server.db.company.findUniqueOrThrow({ where: { id: companyId } });
    expect(saved.bio).toBe('We fix things.');
    expect(saved.socialNetworks).toEqual({ instagram: '@acme' });

    // Unsaved edits: leaving asks first; Cancel stays, Save saves and goes on.
    await page.getByLabel('Bio').fill('We fix everything.');
    await page.getByRole('link', { name: 'Members' }).click();
    const dialog = page.getByRole('dialog', { name: 'Do you want to save the changes?' });
    await dialog.waitFor();
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await dialog.waitFor({ state: 'hidden' });
    expect(new URL(page.url()).pathname).toBe('/i/settings/configCompany/edit_page');
    await page.getByRole('link', { name: 'Members' }).click();
    await dialog.getByRole('button', { name: 'Save' }).click();
    await page.waitForURL('**/i/settings/members');
    expect((await server.db.company.findUniqueOrThrow({ where: { id: companyId } })).bio).toBe('We fix everything.');

    // The greeting's placeholders show filled in the preview.
    await page.goto(`${server.url}/i/settings/configCompany/greetings`);
    await page.getByLabel('Greeting').fill('Hi [nomecliente], welcome to [nomeempresa]!');
    const company = await server.db.company.findUniqueOrThrow({ where: { id: companyId } });
    await page.getByText(`Hi Maria Silva, welcome to ${company.name}!`).waitFor();
    await close();
  });
});

describe('calls settings', () => {
  it('lets the admin switch call recording off and on from the company account', async () => {
    const { page, companyId, close } = await adminOfNewCompany();
    await page.goto(`${server.url}/i/settings/configCompany`);
    const box = page.getByRole('checkbox', { name: 'Allow call recording' });
    await box.waitFor();
    expect(await box.isChecked()).toBe(true);
    await box.click();
    await expect.poll(async () => ((await server.db.company.findUniqueOrThrow({ where: { id: companyId } })).settings as Record<string, unknown>).allowCallRecording).toBe(false);
    await page.reload();
    await box.waitFor();
    expect(await box.isChecked()).toBe(false);
    await box.click();
    await expect.poll(async () => ((await server.db.company.findUniqueOrThrow({ where: { id: companyId } })).settings as Record<string, unknown>).allowCallRecording).toBe(true);
    await close();
  });
});

describe('company image', () => {
  it('uploads an image for the public page and refuses anything else', async () => {
    const { page, domain, companyId, close } = await adminOfNewCompany();
    try {
      await page.goto(`${server.url}/i/settings/configCompany/edit_page`);
      await page.getByRole('button', { name: 'Change image' }).waitFor();
      const png = Buffer.concat([Buffer.from('89504e470d0a1a0a0000000d49484452', 'hex'), Buffer.alloc(1024)]);
      await page.getByLabel('Choose the company image').setInputFiles({ name: 'logo.png', mimeType: 'image/png', buffer: png });
      await page.getByRole('img', { name: 'Company image' }).waitFor();
      await expect.poll(async () => (await server.db.company.findUniqueOrThrow({ where: { id: companyId } })).imageKey).toMatch(new RegExp(`^companies/${domain}/image/`));

      await page.getByLabel('Choose the company image').setInputFiles({ name: 'logo.svg', mimeType: 'image/png', buffer: Buffer.from('<svg onload="alert(1)"/>') });
      await page.getByRole('alert').filter({ hasText: 'The file must be an image (PNG, JPEG, GIF or WebP)' }).waitFor();
    } finally {
      await close();
    }
  });
});

describe('inviting by e-mail', () => {
  it('builds a list without duplicates and tells each outcome', async () => {
    const { page, domain, close } = await adminOfNewCompany();
    const a = `new-a-${uniq()}@example.test`;
    const b = `new-b-${uniq()}@example.test`;
    const bounce = `bounce-${uniq()}@example.test`;

    await page.goto(`${server.url}/i/settings/members`);
    const input = page.getByRole('textbox', { name: 'E-mails to invite' });
    await input.fill(a);
    await page.getByRole('button', { name: 'Add', exact: true }).click();
    await input.fill(a.toUpperCase());
    await page.getByRole('button', { name: 'Add', exact: true }).click();
    await page.getByRole('alert').filter({ hasText: 'This email already belongs to the list' }).waitFor();
    await input.fill(bounce);
    await page.getByRole('button', { name: 'Add', exact: true }).click();
    // Typed but not added: sent as well.
    await input.fill(b);
    await page.getByRole('button', { name: 'Send invitations' }).click();

    await page.getByText(`E-mail sent to ${a}`).waitFor();
    await page.getByText(`E-mail sent to ${b}`).waitFor();
    await page.getByRole('alert').filter({ hasText: `Could not send the e-mail to ${bounce}` }).waitFor();
    const mail = await smtp.next(a);
    expect(mail.link).toContain(`/${domain}/invite`);
    await close();
  });
});
