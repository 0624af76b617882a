import type { types } from 'mediasoup';

/**
 * What every router offers. Opus and VP8 are the codecs every browser sends; H264 constrained
 * baseline (42e01f, packetization-mode 1) is what Safari and hardware encoders on phones prefer.
 */
export const MEDIA_CODECS: types.RouterRtpCodecCapability[] = [
  { kind: 'audio', mimeType: 'audio/opus', clockRate: 48000, channels: 2 },
  { kind: 'video', mimeType: 'video/VP8', clockRate: 90000, parameters: {} },
  {
    kind: 'video',
    mimeType: 'video/H264',
    clockRate: 90000,
    parameters: { 'packetization-mode': 1, 'profile-level-id': '42e01f', 'level-asymmetry-allowed': 1 },
  },
];

/**
 * Options for `router.createWebRtcTransport`. `announcedIp` is the address browsers reach
 * (RTC_ANNOUNCED_IP) when the server listens on a private or wildcard address. TCP is offered too
 * because some corporate networks drop UDP; UDP stays preferred for latency. With a WebRtcServer
 * every transport of the worker shares its one port (UDP and TCP), so a firewall needs one rule.
 */
export function createWebRtcTransportOptions({
  listenIp,
  announcedIp,
  webRtcServer,
}: {
  listenIp: string;
  announcedIp: string | undefined;
  webRtcServer?: types.WebRtcServer | undefined;
}): types.WebRtcTransportOptions {
  const common = {
    enableUdp: true,
    enableTcp: true,
    preferUdp: true,
    // SCTP for data channels: remote assistance sends the attendant's annotations over one.
    enableSctp: true,
    numSctpStreams: { OS: 1024, MIS: 1024 },
  };
  if (webRtcServer) return { webRtcServer, ...common };
  return { listenInfos: listenInfos({ listenIp, announcedIp }), ...common };
}

/** UDP and TCP on the same address (and the same port when one is given). */
export function listenInfos({ listenIp, announcedIp, port }: { listenIp: string; announcedIp: string | undefined; port?: number }): types.TransportListenInfo[] {
  const announced = announcedIp ? { announcedAddress: announcedIp } : {};
  const fixed = port ? { port } : {};
  return [
    { protocol: 'udp', ip: listenIp, ...announced, ...fixed },
    { protocol: 'tcp', ip: listenIp, ...announced, ...fixed },
  ];
}
