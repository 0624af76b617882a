import { z } from 'zod';
import { WIDGET_COLOR, WIDGET_GREETING_MAX, WIDGET_LABEL_MAX } from '../domain/widget';

import { WIDGET_MESSAGES } from '../messages/widget';
export { WIDGET_MESSAGES } from '../messages/widget';

export const widgetSettingsInput = z.object({
  color: z.string().trim().regex(WIDGET_COLOR, WIDGET_MESSAGES.badColor),
  greeting: z.string().trim().max(WIDGET_GREETING_MAX),
  label: z.string().trim().max(WIDGET_LABEL_MAX),
  position: z.enum(['right', 'left']),
});
