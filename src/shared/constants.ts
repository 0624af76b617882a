/**
 * Every number of the spec's "Business constants and limits" table (calls-errors-constants §9),
 * named once. Durations are in milliseconds unless the name says otherwise.
 */
export const APP_VERSION = '2509.21.01';
export const MINIMAL_EXTENSION_VERSION = '1.6.0';

// Calls
export const RING_TIMEOUT_MS = 30_000;
export const RING_SOUND_INTERVAL_MS = 4_000;
export const BILLING_TICK_MS = 30_000;
export const CALL_TIME_LIMIT_MS = { prod: 8 * 3_600_000, stage: 4 * 3_600_000, dev: 2 * 3_600_000 } as const;
export const CALL_TYPE = { voice: 1, video: 2, screenShare: 3, remoteAccess: 4 } as const;
export const RECORDING_STATE = { idle: 1, changing: 2, recording: 3 } as const;
export const SUBTITLE_CLEAR_MS = 5_000;
export const SPEAKER_LEVEL_THRESHOLD = 5;
export const GRID_MAX_SIDE = 4; // up to 4x4 for more than 12 videos
export const GRID_LARGE_THRESHOLD = 12;
export const PUBLISHER_VIDEO = { width: 320, height: 240, frameRate: 30 } as const;
export const SCREEN_SHARE_VIDEO = { width: 1280, height: 720, frameRate: 30 } as const;

// Prices (defaults)
export const DEFAULT_PRICE_PER_MINUTE = { calls: 0, recorder: 0 } as const;
export const DEFAULT_TRANSLATE_PRICE_PER_CHAR = 0.0005;

// Reminders and recurrence
export const REMINDER_BEFORE_MS = { eventTask: 8 * 60_000, appointment: 15 * 60_000, calendarNotice: 3 * 60_000 } as const;
export const RECURRENCE_INSTANCES_AHEAD = 15;

// Storage and plans
export const BYTES_PER_MB = 1_048_576;
export const BYTES_PER_GB = 1_073_741_824;
export const NEW_COMPANY_STORAGE_BYTES = 1_073_741_824;
export const DEFAULT_PLAN_STORAGE_BYTES = 209_715_200;
export const FREE_BYTES_WITHOUT_DASHBOARD = 1e22;
export const DEFAULT_PLAN = {
  calls: 1, voipRecorder: 1, transc: 1, size: 1, members: 1, calendar: 1, forms: 1,
  whatsapp: 0, ellevo: 0, zabbix: 0, intmail: 0, kanban: 0, timesheet: 0, sla: 0, translate: 0,
  anotation: 0, invent: 0, change: 0, cmdb: 0,
} as const;
export const DEFAULT_QUEUE = { id: 'faleconosco', name: 'Fale Conosco' } as const;
export const DEFAULT_GROUPS = ['member', 'admin'] as const;
export const DEFAULT_GREETING =
  'Olá [nomecliente], bem vindo (a) ao canal de atendimento da empresa [nomeempresa]. Aguarde um momento que logo iremos atender você!';
export const PAYMENT_MODE = 2;
export const SERVICE_SIZE_CONSTANT = 10_240;

// Messages
export const MESSAGE_MAX_LENGTH = 1500;
/** Message size estimate: 8 bytes, path length, 34 bytes, participant overhead (1 + 2n + 1). */
export const MESSAGE_SIZE = { base: 8, fixed: 34 } as const;
export const TYPING_DELAY_MS = 1500;
export const UNREAD_BADGE_CAP = 99;
export const GROUP_TITLE_MAX_CHARS = 30;
export const PROTOCOL_DIGITS = 15;

// Identity and access
export const AUTH_GUARD_RETRIES = 5;
export const PASSWORD_MIN_LENGTH = 6;
export const DOMAIN_MIN_LENGTH = 3;
export const DOMAIN_MAX_LENGTH = 15;
export const GUEST_ACCOUNT_TTL_MS = 24 * 3_600_000;
export const SMS_RESEND_COUNTDOWN_MS = 90_000;

// Notifications, e-mail, refresh
export const NOTIFICATION_RETENTION_MS = 7 * 24 * 3_600_000;
export const EMAIL_RESEND_INTERVAL_MS = 14_400_000;
export const RECENTS_REFRESH_MS = 60_000;
export const QUEUE_ALARM_INTERVAL_MS = 60_000;

// Ratings
export const INITIAL_RATING = { total: 5, count: 1 } as const;
export const GLOBAL_COMPANY_RATING = 5;

// Client
export const MOBILE_BREAKPOINT_PX = 767;
export const SIDEBAR_WIDTH_PX = 550;
export const SIDEBAR_MOBILE_MARGIN_PX = 30;
export const SOUND_VOLUME = { send: 0.1, receive: 0.5, notification: 0.5, queue: 1 } as const;
export const CHUNK_LOAD_TIMEOUT_MS = 120_000;
export const STARTUP_DELAY_AFTER_BACKEND_MS = 250;
export const NOTIFY_TOAST_TIMEOUT_MS = 300;
export const CALENDAR_DEFAULT_SCROLL = '08:00';
export const BRAZILIAN_STATE_CODES = [
  'AC', 'AL', 'AP', 'AM', 'BA', 'CE', 'DF', 'ES', 'GO', 'MA', 'MT', 'MS', 'MG', 'PA',
  'PB', 'PR', 'PE', 'PI', 'RJ', 'RN', 'RS', 'RO', 'RR', 'SC', 'SP', 'SE', 'TO',
] as const;

// Conversation types and states
export const CONVERSATION_TYPE = { single: 0, ticket: 1, task: 2, teamChat: 3, live: 4, callChat: 5 } as const;
export const CONVERSATION_STATE = { waiting: 0, serving: 1, waitingThirdParty: 2, concluded: 9999 } as const;

export const LOCALES = ['en', 'pt', 'es', 'it', 'de'] as const;
export type Locale = (typeof LOCALES)[number];
export const DEFAULT_LOCALE: Locale = 'en';
