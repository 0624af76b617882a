import {
  addTimeInput,
  answerSlaInput,
  companyPageInput,
  contactUsSubmitInput,
  createTaskInput,
  customerConversationInput,
  customerMessagesInput,
  customerFileLinksInput,
  customerReadInput,
  customerSendInput,
  linkedTicketInput,
  proposeSlaInput,
  queueViewInput,
  rateInput,
  requestServiceInput,
  serviceConversationInput,
  setTagsInput,
  setWaitingInput,
  timeEntryInput,
  transferInput,
} from '../../../shared/schemas/service';
import { authedProcedure, participantProcedure, memberProcedure, publicProcedure, router } from '../../trpc';
import * as customer from './customer';
import * as service from './service';
import * as timesheet from './timesheet';

/** The attendant's side: company members only (member level). */
export const serviceRouter = router({
  queue: memberProcedure.input(queueViewInput).query(({ ctx, input }) => service.listQueue(ctx, input.queueId)),
  queueCount: memberProcedure.query(({ ctx }) => service.countQueue(ctx)),
  take: memberProcedure.input(serviceConversationInput).mutation(({ ctx, input }) => service.takeRequest(ctx, input.conversationId)),
  details: memberProcedure.input(serviceConversationInput).query(({ ctx, input }) => service.serviceDetails(ctx, input.conversationId)),
  setWaiting: memberProcedure.input(setWaitingInput).mutation(({ ctx, input }) => service.setWaiting(ctx, input.conversationId, input.waiting)),
  conclude: memberProcedure.input(serviceConversationInput).mutation(({ ctx, input }) => service.concludeService(ctx, input.conversationId)),
  reopen: memberProcedure.input(serviceConversationInput).mutation(({ ctx, input }) => service.reopenService(ctx, input.conversationId)),
  transferTargets: memberProcedure.query(({ ctx }) => service.transferTargets(ctx)),
  transfer: memberProcedure.input(transferInput).mutation(({ ctx, input }) => service.transferService(ctx, input)),
  proposeSla: memberProcedure.meta({ plan: 'sla' }).input(proposeSlaInput).mutation(({ ctx, input }) => service.proposeSla(ctx, input.conversationId, input.offerDate)),
  slaBoard: memberProcedure.meta({ plan: 'kanban' }).query(({ ctx }) => service.slaBoard(ctx)),
  setTags: memberProcedure.input(setTagsInput).mutation(({ ctx, input }) => service.setTags(ctx, input.conversationId, input.tags)),
  tags: memberProcedure.query(({ ctx }) => service.companyTags(ctx)),
  createTask: memberProcedure.meta({ rate: 'conversations', permission: 'createService' }).input(createTaskInput).mutation(({ ctx, input }) => service.createTask(ctx, input)),
  linkTargets: memberProcedure.query(({ ctx }) => service.linkTargets(ctx)),
  openLinkedTicket: memberProcedure.meta({ rate: 'conversations', permission: 'createService' }).input(linkedTicketInput).mutation(({ ctx, input }) => service.openLinkedTicket(ctx, input)),
  timesheet: memberProcedure.meta({ plan: 'timesheet' }).input(serviceConversationInput).query(({ ctx, input }) => timesheet.listTimesheet(ctx, input.conversationId)),
  addTime: memberProcedure.meta({ plan: 'timesheet' }).input(addTimeInput).mutation(({ ctx, input }) => timesheet.addTime(ctx, input)),
  removeTime: memberProcedure.meta({ plan: 'timesheet' }).input(timeEntryInput).mutation(({ ctx, input }) => timesheet.removeTime(ctx, input.entryId)),
});

/*
 * The customer's side. companyPage, contactUsForm, request, contactUs and openServices name a
 * company by `domain` yet are for people who are not its members (customers, anonymous visitors):
 * they are listed with their reasons in tests/helpers/procedures.ts. Everything about an existing
 * request takes only its id and is checked by the caller's participation in it.
 */
export const customerRouter = router({
  companyPage: publicProcedure.input(companyPageInput).query(({ ctx, input }) => customer.companyPage(ctx.db, input.domain)),
  contactUsForm: publicProcedure.input(companyPageInput).query(({ ctx, input }) => customer.contactUsForm(ctx.db, input.domain)),
  request: participantProcedure.meta({ rate: 'conversations' }).input(requestServiceInput).mutation(({ ctx, input }) => customer.requestService(ctx, ctx.user, input)),
  contactUs: participantProcedure.meta({ rate: 'conversations' }).input(contactUsSubmitInput).mutation(({ ctx, input }) => customer.submitContactUs(ctx, ctx.user, input)),
  openServices: participantProcedure.input(companyPageInput).query(({ ctx, input }) => customer.openServices(ctx.db, ctx.user, input.domain)),
  conversation: participantProcedure.input(customerConversationInput).query(({ ctx, input }) => customer.customerConversation(ctx, ctx.user, input.conversationId)),
  messages: participantProcedure.input(customerMessagesInput).query(({ ctx, input }) => customer.customerMessages(ctx, ctx.user, input)),
  send: participantProcedure.input(customerSendInput).mutation(({ ctx, input }) => customer.customerSend(ctx, ctx.user, input)),
  fileLinks: participantProcedure.input(customerFileLinksInput).query(({ ctx, input }) => customer.customerFileLinks(ctx, ctx.user, input)),
  markRead: participantProcedure.input(customerReadInput).mutation(({ ctx, input }) => customer.customerMarkRead(ctx, ctx.user, input.conversationId, input.uptoSeq)),
  leaveQueue: participantProcedure.input(customerConversationInput).mutation(({ ctx, input }) => customer.leaveQueue(ctx, ctx.user, input.conversationId)),
  rate: participantProcedure.input(rateInput).mutation(({ ctx, input }) => customer.rateService(ctx, ctx.user, input.conversationId, input.stars)),
  answerSla: participantProcedure.input(answerSlaInput).mutation(({ ctx, input }) => customer.answerSla(ctx, ctx.user, input.conversationId, input.accept)),
});
