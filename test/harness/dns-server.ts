// A small authoritative DNS server for tests (node:dgram, RFC 1035 wire format): it answers TXT
// queries from a map the test fills, NXDOMAIN for names it does not know, NOERROR with no answers
// (NODATA) for other types of known names, and SERVFAIL for names marked as failing. The stack's
// domain verification reaches it through DNS_SERVERS (global-setup.mjs sets TEST_PORT_BASE+53).
import { createSocket, type Socket } from 'node:dgram';

const TYPE_TXT = 16;
const TYPE_ANY = 255;
const RCODE = { noError: 0, servFail: 2, nxDomain: 3, notImp: 4 } as const;

interface Question {
  name: string;
  type: number;
  /** the question section exactly as received, echoed back */
  raw: Buffer;
}

/** Parse the header's first question; undefined for anything malformed (or compressed, which queries never are). */
export function parseQuestion(msg: Buffer): Question | undefined {
  if (msg.length < 12 || msg.readUInt16BE(4) < 1) return undefined;
  const labels: string[] = [];
  let off = 12;
  for (;;) {
    if (off >= msg.length) return undefined;
    const len = msg[off];
    if (len === 0) break;
    if (len > 63 || off + 1 + len > msg.length) return undefined;
    labels.push(msg.subarray(off + 1, off + 1 + len).toString('latin1'));
    off += 1 + len;
  }
  off += 1;
  if (off + 4 > msg.length) return undefined;
  return { name: labels.join('.').toLowerCase(), type: msg.readUInt16BE(off), raw: msg.subarray(12, off + 4) };
}

/** TXT RDATA: the value as <length><bytes> character-strings of at most 255 bytes each. */
export function txtRdata(value: string): Buffer {
  const bytes = Buffer.from(value, 'utf8');
  const parts: Buffer[] = [];
  for (let i = 0; i === 0 || i < bytes.length; i += 255) {
    const chunk = bytes.subarray(i, i + 255);
    parts.push(Buffer.from([chunk.length]), chunk);
  }
  return Buffer.concat(parts);
}

export function buildResponse(query: Buffer, q: Question | undefined, rcode: number, txt: string[]): Buffer {
  const header = Buffer.alloc(12);
  header.writeUInt16BE(query.readUInt16BE(0), 0); // id
  const rd = query[2] & 0x01;
  header[2] = 0x80 | 0x04 | rd; // QR, AA, RD copied
  header[3] = 0x80 | rcode; // RA
  header.writeUInt16BE(q ? 1 : 0, 4);
  header.writeUInt16BE(txt.length, 6);
  const answers = txt.map((v) => {
    const rdata = txtRdata(v);
    const rr = Buffer.alloc(12);
    rr.writeUInt16BE(0xc00c, 0); // pointer to the question's name
    rr.writeUInt16BE(TYPE_TXT, 2);
    rr.writeUInt16BE(1, 4); // IN
    rr.writeUInt32BE(0, 6); // TTL 0: tests change records between lookups
    rr.writeUInt16BE(rdata.length, 10);
    return Buffer.concat([rr, rdata]);
  });
  return Buffer.concat([header, q?.raw ?? Buffer.alloc(0), ...answers]);
}

export class TestDnsServer {
  private records = new Map<string, string[]>();
  private failing = new Set<string>();
  /** names asked, in order (lower-case) */
  readonly asked: string[] = [];

  private constructor(private socket: Socket, readonly port: number) {
    socket.on('message', (msg, peer) => {
      const reply = this.answer(msg);
      if (reply) socket.send(reply, peer.port, peer.address);
    });
  }

  static async start(port: number, host = '127.0.0.1'): Promise<TestDnsServer> {
    const socket = createSocket('udp4');
    await new Promise<void>((resolve, reject) => {
      socket.once('error', reject);
      socket.bind(port, host, () => {
        socket.off('error', reject);
        resolve();
      });
    });
    return new TestDnsServer(socket, (socket.address() as { port: number }).port);
  }

  /** Replace the TXT records of `name`. */
  setTxt(name: string, values: string | string[]): void {
    this.records.set(name.toLowerCase().replace(/\.$/, ''), Array.isArray(values) ? values : [values]);
  }

  remove(name: string): void {
    this.records.delete(name.toLowerCase().replace(/\.$/, ''));
  }

  /** Answer SERVFAIL for `name` (a broken authoritative server). */
  fail(name: string, on = true): void {
    const n = name.toLowerCase().replace(/\.$/, '');
    if (on) this.failing.add(n);
    else this.failing.delete(n);
  }

  answer(msg: Buffer): Buffer | undefined {
    if (msg.length < 12 || msg[2] & 0x80) return undefined; // not a query
    const q = parseQuestion(msg);
    if (!q) return buildResponse(msg, undefined, RCODE.notImp, []);
    this.asked.push(q.name);
    if (this.failing.has(q.name)) return buildResponse(msg, q, RCODE.servFail, []);
    const txt = this.records.get(q.name);
    if (!txt) return buildResponse(msg, q, RCODE.nxDomain, []);
    return buildResponse(msg, q, RCODE.noError, q.type === TYPE_TXT || q.type === TYPE_ANY ? txt : []);
  }

  close(): Promise<void> {
    return new Promise((resolve) => this.socket.close(() => resolve()));
  }
}
