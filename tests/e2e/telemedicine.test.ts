/**
 * Telemedicine in Chromium with a fake camera and microphone, through the real SFU (issue 19): a
 * doctor enrols with the CRM document, the admin approves, the doctor goes online, a patient asks
 * for a consultation and sees the place in line, the doctor takes it, both are in the video call
 * with media flowing both ways, the doctor ends the consultation and the patient rates it.
 */
import fs from 'node:fs';
import { seriousViolations } from '../helpers/axe';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resolveWorkerBin } from '../../src/server/media';
import { launchBrowser } from '../helpers/browser';
import { createCompany, createUser, signIn } from '../helpers/fixtures';
import { startTestServer, type TestServer } from '../helpers/server';
import { budget } from '../helpers/time';
import { callProcedure } from '../helpers/trpc';

const { bin } = resolveWorkerBin(process.env.MEDIASOUP_WORKER_BIN);
const why = bin ? '' : ' [skipped: no mediasoup worker binary; run `npm run build:worker` or set MEDIASOUP_WORKER_BIN]';

let server: TestServer;
let browser: Browser;
const contexts: BrowserContext[] = [];

const CAPTURE_PEER_CONNECTIONS = () => {
  const Original = window.RTCPeerConnection;
  const made: RTCPeerConnection[] = [];
  (window as unknown as { __pcs: RTCPeerConnection[] }).__pcs = made;
  window.RTCPeerConnection = class extends Original {
    constructor(config?: RTCConfiguration) {
      super(config);
      made.push(this);
    }
  };
};

async function inboundVideo(page: Page): Promise<number> {
  return page.evaluate(async () => {
    let bytes = 0;
    for (const pc of (window as unknown as { __pcs: RTCPeerConnection[] }).__pcs) {
      if (pc.connectionState === 'closed') continue;
      (await pc.getStats()).forEach((s) => {
        if (s.type === 'inbound-rtp' && s.kind === 'video') bytes += s.bytesReceived ?? 0;
      });
    }
    return bytes;
  });
}

/**
 * Serious and critical accessibility violations (axe-core, WCAG 2.1 AA) in this feature's screen
 * (the shell around it has its own checks in screens.test.ts).
 */
const violations = (page: Page) => seriousViolations(page, { include: '.tele-page, .settings-page' });

beforeAll(async () => {
  if (!bin) return;
  if (!fs.existsSync('dist/client/index.html')) throw new Error('dist/client is missing: build the browser app first (node scripts/setup.mjs --client)');
  [server, browser] = await Promise.all([startTestServer({ env: { MEDIASOUP_NUM_WORKERS: '1', MEDIASOUP_WORKER_BIN: bin } }), launchBrowser({ media: true })]);
});
afterAll(async () => {
  for (const c of contexts) await c.close().catch(() => {});
  await browser?.close();
  await server?.close();
});

async function open(cookie: string): Promise<Page> {
  const context = await browser.newContext({ locale: 'en-US', permissions: ['camera', 'microphone'] });
  contexts.push(context);
  const [name, value] = cookie.split('=') as [string, string];
  await context.addCookies([{ name, value, url: server.url }]);
  await context.addInitScript(CAPTURE_PEER_CONNECTIONS);
  const page = await context.newPage();
  page.on('pageerror', (err) => console.error('page error:', err.message));
  return page;
}

describe.skipIf(!bin)(`a consultation in the browser${why}`, () => {
  it('goes from enrolment to a rated video consultation', async () => {
    const [adminUser, doctorUser, patientUser] = [await createUser(server.db, { name: 'Ana Admin' }), await createUser(server.db, { name: 'Paula Médica' }), await createUser(server.db, { name: 'Pedro Paciente' })];
    const company = await createCompany(server.db, adminUser.id);
    await server.db.company.update({ where: { id: company.id }, data: { billingExempt: true } });
    const [adminCookie, doctorCookie, patientCookie] = [await signIn(server.db, adminUser.id), await signIn(server.db, doctorUser.id), await signIn(server.db, patientUser.id)];
    await callProcedure(server.url, 'company.select', { domain: company.domain }, { cookie: adminCookie, type: 'mutation' });
    await callProcedure(server.url, 'telemedicine.configure', { domain: company.domain, enabled: true, acceptsGlobalDoctors: false }, { cookie: adminCookie, type: 'mutation' });

    // The doctor enrols, with the CRM document.
    const doctor = await open(doctorCookie);
    await doctor.goto(`${server.url}/i/doctordash`);
    await doctor.getByLabel('Company (domain)').waitFor();
    expect(await violations(doctor)).toEqual([]);
    await doctor.getByLabel('Company (domain)').fill(company.domain);
    await doctor.getByLabel('CRM number').fill('123456');
    await doctor.getByLabel('State (UF)').selectOption('RJ');
    await doctor.getByLabel('Prefix').selectOption('Dra.');
    await doctor.getByLabel('Speciality').fill('Clínica geral');
    await doctor.locator('input[type=file]').setInputFiles({ name: 'crm.pdf', mimeType: 'application/pdf', buffer: Buffer.from('%PDF-1.4 CRM') });
    await doctor.getByRole('button', { name: 'Send enrolment' }).click();
    await doctor.getByText('Waiting for approval').waitFor();
    expect((await server.db.doctorEnrolment.findUniqueOrThrow({ where: { id: '123456|RJ' } })).documentKey).not.toBeNull();

    // The admin approves it.
    const admin = await open(adminCookie);
    await admin.goto(`${server.url}/i/settings/doctors`);
    await admin.getByRole('link', { name: /Dra\. Paula Médica/ }).waitFor();
    expect(await violations(admin)).toEqual([]);
    await admin.getByRole('link', { name: /Dra\. Paula Médica/ }).click();
    await admin.getByRole('button', { name: 'Open the CRM document' }).waitFor();
    expect(await violations(admin)).toEqual([]);
    await admin.getByRole('button', { name: 'Approve' }).click();
    await admin.getByText('Approved').first().waitFor();

    // The doctor goes online.
    await doctor.reload();
    await doctor.getByRole('switch', { name: 'Offline' }).click();
    await doctor.getByRole('switch', { name: 'Online' }).waitFor();

    // The patient asks and sees the place in line.
    const patient = await open(patientCookie);
    // From the company's public page, which offers consultations.
    await patient.goto(`${server.url}/${company.domain}`);
    await patient.getByRole('link', { name: 'Talk to a doctor' }).click();
    await patient.getByRole('button', { name: 'Request a consultation' }).click();
    await patient.getByText('Your place in line: 1').waitFor();
    await patient.getByText('You are next.').waitFor();
    expect(await violations(patient)).toEqual([]);

    // The doctor takes the patient and joins the call; the patient joins from the consultation page.
    await doctor.getByRole('button', { name: 'Take next patient' }).click();
    await doctor.getByRole('heading', { name: 'Consultation in progress' }).waitFor();
    // The dashboard at phone width too.
    await doctor.setViewportSize({ width: 390, height: 844 });
    expect(await violations(doctor)).toEqual([]);
    expect(await doctor.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
    await doctor.setViewportSize({ width: 1280, height: 720 });
    // One tab each, as people use it: the doctor joins from the dashboard and comes back to it.
    const doctorCall = doctor;
    const callLink = await doctor.getByRole('link', { name: 'Join the video call' }).getAttribute('href');
    // The doctor is in the call first, then the patient joins.
    await doctorCall.goto(`${server.url}${callLink}`);
    await doctorCall.getByRole('dialog', { name: 'Choose your audio and video options' }).getByRole('button', { name: 'Join now' }).click();
    await doctorCall.getByRole('toolbar', { name: 'Call controls' }).waitFor();
    await patient.getByRole('link', { name: 'Join the video call' }).click();
    await patient.getByRole('dialog', { name: 'Choose your audio and video options' }).getByRole('button', { name: 'Join now' }).click();
    await patient.getByRole('toolbar', { name: 'Call controls' }).waitFor();
    // Video flows both ways, and keeps flowing.
    for (const [page, who] of [[doctorCall, 'doctor'], [patient, 'patient']] as const) {
      await expect.poll(() => inboundVideo(page), { timeout: budget(30_000), message: `${who} receives video` }).toBeGreaterThan(0);
      const before = await inboundVideo(page);
      await expect.poll(() => inboundVideo(page), { timeout: budget(30_000), message: `${who} keeps receiving video` }).toBeGreaterThan(before);
    }
    const consultation = await server.db.consultation.findFirstOrThrow({ where: { patientId: patientUser.id } });
    expect((await server.db.call.findUniqueOrThrow({ where: { id: consultation.callId! } })).telemedicine).toBe(true);
    // The patient, and only the patient, is asked about recording inside the call.
    await patient.getByRole('switch', { name: 'I allow this consultation to be recorded' }).click();
    await expect.poll(async () => (await server.db.consultation.findUniqueOrThrow({ where: { id: consultation.id } })).recordingConsent).toBe(true);
    expect(await doctorCall.getByRole('switch', { name: 'I allow this consultation to be recorded' }).count()).toBe(0);

    // The doctor ends the consultation from the dashboard; the patient rates it.
    await doctor.goto(`${server.url}/i/doctordash`);
    await doctor.getByRole('button', { name: 'End consultation' }).click();
    await doctor.getByRole('dialog', { name: 'End this consultation?' }).getByRole('button', { name: 'End consultation' }).click();
    await doctor.getByRole('heading', { name: 'Waiting patients' }).waitFor();
    await expect.poll(async () => (await server.db.call.findUniqueOrThrow({ where: { id: consultation.callId! } })).concluded).toBe(true);
    await patient.goto(`${server.url}/${company.domain}/consultation?c=${consultation.id}`);
    await patient.getByRole('button', { name: '5 stars' }).click();
    await patient.getByText('Thank you for rating the consultation.').waitFor();
    expect((await server.db.conversation.findUniqueOrThrow({ where: { id: consultation.conversationId } })).rating).toBe(5);
  }, 240_000);
});
