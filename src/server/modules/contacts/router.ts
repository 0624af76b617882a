/**
 * Customers (external contacts, /i/recent/customers/{id} and /edit); every procedure takes
 * `domain`. Any member reads the directory; adding (and importing) needs the profile permission
 * addContacts, changing, merging, removing and exporting needs editContacts (spec 3, Profile).
 *   contacts.list q {q?, tag?, cursor?, limit?} -> {items, nextCursor, total}
 *   contacts.get q {contactId} -> the record, the additional fields, conversations, ratings, calls
 *   contacts.create m (addContacts);  contacts.update / remove / merge {keepId, mergeId} m (editContacts)
 *   contacts.exportCsv q (editContacts) -> {fileName, csv, count}
 *   contacts.importStatus q {importId} -> progress and the refused rows
 *   PUT /uploads/contacts/:domain/import?name=  raw CSV body (addContacts) -> {importId, total}
 * Socket: contacts:import {importId, status, total, processed, created, updated, failed} to the importer.
 */
import { z } from 'zod';
import { contactCreateInput, contactImportInput, contactInput, contactMergeInput, contactsListInput, contactUpdateInput, customerHistoryInput } from '../../../shared/schemas/contacts';
import { domainSchema } from '../../../shared/schemas/company';
import { memberProcedure, router } from '../../trpc';
import { importStatus } from './imports';
import * as contacts from './service';

export const contactsRouter = router({
  list: memberProcedure.input(contactsListInput).query(({ ctx, input }) => contacts.listContacts(ctx, input)),
  get: memberProcedure.input(contactInput).query(({ ctx, input }) => contacts.getContact(ctx, input.contactId)),
  customerHistory: memberProcedure.input(customerHistoryInput).query(({ ctx, input }) => contacts.customerHistory(ctx, input.userId, input.exceptConversationId)),
  create: memberProcedure
    .meta({ permission: 'addContacts' })
    .input(contactCreateInput)
    .mutation(({ ctx, input: { domain: _domain, ...input } }) => contacts.createContact(ctx, input)),
  update: memberProcedure
    .meta({ permission: 'editContacts' })
    .input(contactUpdateInput)
    .mutation(({ ctx, input: { domain: _domain, contactId, ...input } }) => contacts.updateContact(ctx, contactId, input)),
  remove: memberProcedure.meta({ permission: 'editContacts' }).input(contactInput).mutation(({ ctx, input }) => contacts.removeContact(ctx, input.contactId)),
  merge: memberProcedure.meta({ permission: 'editContacts' }).input(contactMergeInput).mutation(({ ctx, input }) => contacts.mergeContacts(ctx, input.keepId, input.mergeId)),
  exportCsv: memberProcedure.meta({ permission: 'editContacts' }).input(z.object({ domain: domainSchema })).query(({ ctx }) => contacts.exportCsv(ctx)),
  importStatus: memberProcedure.input(contactImportInput).query(({ ctx, input }) => importStatus(ctx, input.importId)),
});
