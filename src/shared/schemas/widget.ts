import { z } from 'zod';
import { WIDGET_COLOR, WIDGET_GREETING_MAX, WIDGET_LABEL_MAX } from '../domain/widget';

export const WIDGET_MESSAGES = {
  badColor: 'The colour must be a hex colour such as #1f5fbf',
} as const;

export const widgetSettingsInput = z.object({
  color: z.string().trim().regex(WIDGET_COLOR, WIDGET_MESSAGES.badColor),
  greeting: z.string().trim().max(WIDGET_GREETING_MAX),
  label: z.string().trim().max(WIDGET_LABEL_MAX),
  position: z.enum(['right', 'left']),
});
