import {
  channelSettingsInput,
  saveTelegramInput,
  saveWhatsAppInput,
  integrateEmailInput,
  pushSubscribeInput,
  removeIntegrationInput,
  saveEmailInput,
  saveIntegrationInput,
  pushUnsubscribeInput,
  telegramNotifyInput,
  testMessageInput,
  whatsappEntryInput,
} from '../../../shared/schemas/channels';
import { TRPCError } from '@trpc/server';
import { adminProcedure, authedProcedure, memberProcedure, publicProcedure, router } from '../../trpc';
import * as mail from './mail-settings';
import * as push from './push';
import * as channels from './service';

const whatsapp = adminProcedure.meta({ plan: 'whatsapp' });
const intmail = adminProcedure.meta({ plan: 'intmail' });

export const channelsRouter = router({
  whatsappSettings: whatsapp.input(channelSettingsInput).query(({ ctx }) => channels.channelSettings(ctx, 'whatsapp')),
  saveWhatsApp: whatsapp.input(saveWhatsAppInput).mutation(({ ctx, input }) => channels.saveWhatsApp(ctx, input)),
  testWhatsApp: whatsapp.input(testMessageInput).mutation(({ ctx, input }) => channels.sendTest(ctx, 'whatsapp', input)),
  // The spec's plan has no Telegram flag: admins only.
  telegramSettings: adminProcedure.input(channelSettingsInput).query(({ ctx }) => channels.channelSettings(ctx, 'telegram')),
  saveTelegram: adminProcedure.input(saveTelegramInput).mutation(({ ctx, input }) => channels.saveTelegram(ctx, input)),
  testTelegram: adminProcedure.input(testMessageInput).mutation(({ ctx, input }) => channels.sendTest(ctx, 'telegram', input)),
  // The e-mail integration: the company's mailbox and its Integrations (address + title TAGs → queue).
  emailSettings: intmail.input(channelSettingsInput).query(({ ctx }) => mail.emailSettings(ctx)),
  saveEmail: intmail.input(saveEmailInput).mutation(({ ctx, input }) => mail.saveEmail(ctx, input)),
  saveIntegration: intmail.input(saveIntegrationInput).mutation(({ ctx, input }) => mail.saveIntegration(ctx, input)),
  removeIntegration: intmail.input(removeIntegrationInput).mutation(({ ctx, input }) => mail.removeIntegration(ctx, input)),
  // integrateSingleService: an outside address joins a single conversation by e-mail.
  integrateEmail: memberProcedure
    .meta({ permission: 'integrateSingleService', plan: 'intmail' })
    .input(integrateEmailInput)
    .mutation(({ ctx, input }) => mail.integrateEmail(ctx, input)),
  whatsappEntry: publicProcedure.input(whatsappEntryInput).query(({ ctx, input }) => channels.whatsappEntry(ctx.db, input.domain)),
  telegramNotify: memberProcedure.input(telegramNotifyInput).query(({ ctx }) => channels.telegramNotify(ctx)),
  unlinkTelegramNotify: memberProcedure.input(telegramNotifyInput).mutation(({ ctx }) => channels.unlinkTelegramNotify(ctx)),
  // Web Push: the key browsers subscribe with, and this session's subscription.
  pushKey: authedProcedure.query(({ ctx }) => ({ publicKey: push.vapidKeys(ctx.config).publicKey })),
  pushSubscribe: authedProcedure.input(pushSubscribeInput).mutation(({ ctx, input }) => {
    // A push service is on the internet over TLS; anything else would let a user aim our worker at an internal address.
    if (ctx.config.env === 'production' && !input.endpoint.startsWith('https://')) throw new TRPCError({ code: 'BAD_REQUEST', message: 'A push endpoint must be https' });
    return push.subscribe(ctx.db, ctx.user.id, ctx.session.id, input);
  }),
  pushUnsubscribe: authedProcedure.input(pushUnsubscribeInput).mutation(({ ctx, input }) => push.unsubscribe(ctx.db, ctx.user.id, input.endpoint)),
});
