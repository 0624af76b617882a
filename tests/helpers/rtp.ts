/**
 * Media without a browser: a synthetic Opus publisher (RTP packets from Node into a PlainTransport
 * of the room, 50 per second like a real voice) and a viewer that is a PlainTransport consumer
 * whose packets land on a local UDP socket and are counted.
 */
import dgram from 'node:dgram';
import type { types } from 'mediasoup';

export const OPUS_RTP: types.RtpParameters = {
  codecs: [{ mimeType: 'audio/opus', payloadType: 111, clockRate: 48000, channels: 2 }],
  encodings: [{ ssrc: 11111111 }],
};

/** Sends Opus-shaped RTP (20 ms frames) to `port` until stopped. */
export function sendOpus(port: number, ssrc = 11111111) {
  const socket = dgram.createSocket('udp4');
  let seq = 0;
  let ts = 0;
  const payload = Buffer.alloc(80, 0xab);
  const timer = setInterval(() => {
    const header = Buffer.alloc(12);
    header[0] = 0x80;
    header[1] = 111;
    header.writeUInt16BE(seq++ & 0xffff, 2);
    header.writeUInt32BE(ts >>> 0, 4);
    header.writeUInt32BE(ssrc, 8);
    ts += 960;
    socket.send(Buffer.concat([header, payload]), port, '127.0.0.1');
  }, 20);
  return {
    stop() {
      clearInterval(timer);
      socket.close();
    },
  };
}

/** A PlainTransport consumer of `producerId` on `router`, counting the RTP packets it sends us. */
export async function countingViewer(router: types.Router, producerId: string) {
  const socket = dgram.createSocket('udp4');
  let packets = 0;
  socket.on('message', (m) => {
    // RTP (payload types below 72 or above 95 in byte 2) rather than RTCP.
    const pt = m[1]! & 0x7f;
    if (m.length >= 12 && (pt < 72 || pt > 95)) packets++;
  });
  await new Promise<void>((resolve) => socket.bind(0, '127.0.0.1', () => resolve()));
  const transport = await router.createPlainTransport({ listenInfo: { protocol: 'udp', ip: '127.0.0.1' }, rtcpMux: true, comedia: false });
  await transport.connect({ ip: '127.0.0.1', port: socket.address().port });
  const consumer = await transport.consume({ producerId, rtpCapabilities: router.rtpCapabilities });
  return {
    consumer,
    get packets() {
      return packets;
    },
    close() {
      transport.close();
      socket.close();
    },
  };
}
