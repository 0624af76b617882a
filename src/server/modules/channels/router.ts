import {
  channelSettingsInput,
  saveTelegramInput,
  saveWhatsAppInput,
  telegramNotifyInput,
  testMessageInput,
  whatsappEntryInput,
} from '../../../shared/schemas/channels';
import { adminProcedure, memberProcedure, publicProcedure, router } from '../../trpc';
import * as channels from './service';

const whatsapp = adminProcedure.meta({ plan: 'whatsapp' });

export const channelsRouter = router({
  whatsappSettings: whatsapp.input(channelSettingsInput).query(({ ctx }) => channels.channelSettings(ctx, 'whatsapp')),
  saveWhatsApp: whatsapp.input(saveWhatsAppInput).mutation(({ ctx, input }) => channels.saveWhatsApp(ctx, input)),
  testWhatsApp: whatsapp.input(testMessageInput).mutation(({ ctx, input }) => channels.sendTest(ctx, 'whatsapp', input)),
  // The spec's plan has no Telegram flag: admins only.
  telegramSettings: adminProcedure.input(channelSettingsInput).query(({ ctx }) => channels.channelSettings(ctx, 'telegram')),
  saveTelegram: adminProcedure.input(saveTelegramInput).mutation(({ ctx, input }) => channels.saveTelegram(ctx, input)),
  testTelegram: adminProcedure.input(testMessageInput).mutation(({ ctx, input }) => channels.sendTest(ctx, 'telegram', input)),
  whatsappEntry: publicProcedure.input(whatsappEntryInput).query(({ ctx, input }) => channels.whatsappEntry(ctx.db, input.domain)),
  telegramNotify: memberProcedure.input(telegramNotifyInput).query(({ ctx }) => channels.telegramNotify(ctx)),
  unlinkTelegramNotify: memberProcedure.input(telegramNotifyInput).mutation(({ ctx }) => channels.unlinkTelegramNotify(ctx)),
});
