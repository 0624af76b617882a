import type { ProvisionProgress } from './provision';

/** What /healthz and the UI say about calls. */
export type MediaStatus =
  | { available: true; workers: { index: number; pid: number; restarts: number }[] }
  /** `preparing` while a worker binary is being downloaded or built: calls start by themselves after. */
  | { available: false; reason: string; preparing?: ProvisionProgress };
