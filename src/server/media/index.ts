export { MEDIA_CODECS, createWebRtcTransportOptions } from './codecs';
export { MediaError, Room, type Peer, type ProducerAppData, type RoomListener, type RoomNetwork } from './room';
export { RoomRegistry, type WorkerPool } from './rooms';
export type { MediaStatus } from './status';
export { MediaWorkers, cachedWorkerPath, mediasoupPackage, resolveWorkerBin, type MediaWorkersOptions, type WorkerBinResolution, type WorkerDiedEvent } from './workers';
export { prebuiltArchiveName, provisionWorkerBinary, type ProvisionProgress } from './provision';
