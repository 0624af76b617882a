/**
 * The embeddable widget's look as a company configures it (/i/settings/widget). The script tag's
 * data-attributes still override each value on one site; empty greeting/label mean "the default
 * text in the visitor's language" (the script and the messenger hold those).
 */
export const WIDGET_COLOR = /^#([0-9a-f]{3}|[0-9a-f]{6})$/i;
export const WIDGET_DEFAULT_COLOR = '#1f5fbf';
export const WIDGET_GREETING_MAX = 200;
export const WIDGET_LABEL_MAX = 60;

export type WidgetPosition = 'right' | 'left';

export interface WidgetSettings {
  color: string;
  greeting: string;
  label: string;
  position: WidgetPosition;
}

export const defaultWidget = (): WidgetSettings => ({ color: WIDGET_DEFAULT_COLOR, greeting: '', label: '', position: 'right' });

/** The stored JSON read defensively: companies from before this setting hold {}. */
export function widgetSettingsOf(stored: unknown): WidgetSettings {
  const s = (stored && typeof stored === 'object' ? stored : {}) as Partial<Record<keyof WidgetSettings, unknown>>;
  const d = defaultWidget();
  return {
    color: typeof s.color === 'string' && WIDGET_COLOR.test(s.color) ? s.color : d.color,
    greeting: typeof s.greeting === 'string' ? s.greeting.slice(0, WIDGET_GREETING_MAX) : d.greeting,
    label: typeof s.label === 'string' ? s.label.slice(0, WIDGET_LABEL_MAX) : d.label,
    position: s.position === 'left' ? 'left' : 'right',
  };
}

/** The tag a company pastes into its site: only its domain; the rest comes from its settings. */
export const widgetTag = (origin: string, domain: string) => `<script src="${origin}/widget.js" data-domain="${domain}" async></script>`;
