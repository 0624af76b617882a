import http from 'node:http';
import type { AddressInfo } from 'node:net';

/** A local SMS gateway that speaks our HTTP SMS protocol (POST {to, text}) and keeps the texts. */
export async function startSmsGateway(token = 'sms-test-token') {
  const received: { to: string; text: string; authorization?: string }[] = [];
  const server = http.createServer((req, res) => {
    let body = '';
    req.on('data', (c) => (body += c));
    req.on('end', () => {
      if (req.headers.authorization !== `Bearer ${token}`) {
        res.writeHead(401).end();
        return;
      }
      received.push({ ...JSON.parse(body), authorization: req.headers.authorization });
      res.writeHead(202, { 'content-type': 'application/json' }).end('{"queued":true}');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/messages`,
    token,
    received,
    /** The 6-digit code in the last SMS to `to`. */
    lastCode(to: string): string {
      const sms = [...received].reverse().find((m) => m.to === to);
      const code = sms?.text.match(/\b(\d{6})\b/)?.[1];
      if (!code) throw new Error(`no code sent to ${to}`);
      return code;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
