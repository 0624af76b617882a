/** What /healthz and the UI say about calls. */
export type MediaStatus =
  | { available: true; workers: { index: number; pid: number; restarts: number }[] }
  | { available: false; reason: string };
