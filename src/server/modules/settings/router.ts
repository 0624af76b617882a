import { callSettingsInput, contactUsInput, greetingInput, publicPageInput } from '../../../shared/schemas/company';
import { additionalFieldIdInput, createAdditionalFieldInput, updateAdditionalFieldInput } from '../../../shared/schemas/profiles';
import { widgetSettingsInput } from '../../../shared/schemas/widget';
import { adminProcedure, router } from '../../trpc';
import * as settings from './service';

/** Company settings pages (/i/settings/configCompany and friends): admins only (spec 6). */
export const settingsRouter = router({
  updatePublicPage: adminProcedure.input(publicPageInput).mutation(({ ctx, input }) => settings.updatePublicPage(ctx, input)),
  greeting: adminProcedure.query(({ ctx }) => settings.readGreeting(ctx)),
  updateGreeting: adminProcedure.input(greetingInput).mutation(({ ctx, input }) => settings.updateGreeting(ctx, input.greeting)),
  callSettings: adminProcedure.query(({ ctx }) => settings.readCallSettings(ctx)),
  updateCallSettings: adminProcedure.input(callSettingsInput).mutation(({ ctx, input }) => settings.updateCallSettings(ctx, input)),
  companyAccount: adminProcedure.query(({ ctx }) => settings.companyAccount(ctx)),
  contactUs: adminProcedure.query(({ ctx }) => settings.readContactUs(ctx)),
  updateContactUs: adminProcedure.input(contactUsInput).mutation(({ ctx, input }) => settings.updateContactUs(ctx, input)),
  /** The embeddable widget's colour, greeting, launcher label and position (/i/settings/widget). */
  widget: adminProcedure.query(({ ctx }) => settings.readWidget(ctx)),
  updateWidget: adminProcedure.input(widgetSettingsInput).mutation(({ ctx, input }) => settings.updateWidget(ctx, input)),
});

/** Additional fields (campos adicionais): name, TAG, multiple choice with options. */
export const additionalFieldsRouter = router({
  list: adminProcedure.query(({ ctx }) => settings.listAdditionalFields(ctx)),
  create: adminProcedure.input(createAdditionalFieldInput).mutation(({ ctx, input }) => settings.createAdditionalField(ctx, input)),
  update: adminProcedure.input(updateAdditionalFieldInput).mutation(({ ctx, input }) => settings.updateAdditionalField(ctx, input)),
  delete: adminProcedure.input(additionalFieldIdInput).mutation(({ ctx, input }) => settings.deleteAdditionalField(ctx, input.fieldId)),
});
