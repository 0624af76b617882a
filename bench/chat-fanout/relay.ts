/**
 * The transport's ceiling: a bare Socket.IO server that relays POST /send, or an acknowledged
 * `send` event, to the conversation's room, with no database, no session and no validation. Same
 * machine, same clients, same payload.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { Server } from 'socket.io';

export async function startRelay() {
  let seq = 0;
  const server = http.createServer((req, res) => {
    if (req.method !== 'POST' || req.url !== '/send') {
      res.writeHead(404).end();
      return;
    }
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const m = JSON.parse(Buffer.concat(chunks).toString('utf8')) as { conversationId: string; clientId: string; authorId: string; text: string };
      const message = { ...m, id: String(++seq), seq, type: 'texto', createdAt: new Date() };
      io.to(`conversation:${m.conversationId}`).emit('message:new', message);
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(message));
    });
  });
  const io = new Server(server, { transports: ['websocket'] });
  io.on('connection', (socket) => {
    void socket.join(`conversation:${String(socket.handshake.auth.room)}`);
    socket.on('send', (m: { conversationId: string; clientId: string; authorId: string; text: string }, ack: (r: unknown) => void) => {
      const message = { ...m, id: String(++seq), seq, type: 'texto', createdAt: new Date() };
      io.to(`conversation:${m.conversationId}`).emit('message:new', message);
      ack({ ok: true, message });
    });
    socket.emit('relay:ready');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () => new Promise<void>((resolve) => io.close(() => resolve())),
  };
}
