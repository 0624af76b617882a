export { MEDIA_CODECS, createWebRtcTransportOptions } from './codecs';
export type { MediaStatus } from './status';
export { MediaWorkers, resolveWorkerBin, type MediaWorkersOptions, type WorkerBinResolution, type WorkerDiedEvent } from './workers';
