// A local HTTP server answering JSON, for the tests that stand in for a service the stack calls (an
// operator's model server, a chat-completions server): each request's body is read and parsed (an
// empty body as {}), and `answer` gives the reply's status and JSON body (undefined: 404, no body).
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';

export interface JsonRequest {
  method: string;
  /** the request's path with its query */
  path: string;
  headers: IncomingHttpHeaders;
  body: any;
}

export interface JsonReply {
  /** 200 when left out */
  status?: number;
  body: unknown;
}

export type JsonAnswer = (req: JsonRequest) => JsonReply | undefined | Promise<JsonReply | undefined>;

/** The server, not listening yet (`server.listen(port, '127.0.0.1')`, or listenLocal). */
export function jsonServer(answer: JsonAnswer): Server {
  return createServer((req, res) => {
    let raw = '';
    req.on('data', (c) => (raw += c));
    req.on('end', async () => {
      const reply = await answer({ method: req.method ?? 'GET', path: req.url ?? '', headers: req.headers, body: raw ? JSON.parse(raw) : {} });
      if (!reply) return void res.writeHead(404).end();
      res.writeHead(reply.status ?? 200, { 'content-type': 'application/json' });
      res.end(JSON.stringify(reply.body));
    });
  });
}

/** A jsonServer listening on 127.0.0.1:`port`. */
export async function listenLocal(answer: JsonAnswer, port: number): Promise<Server> {
  const server = jsonServer(answer);
  await new Promise<void>((r) => server.listen(port, '127.0.0.1', r));
  return server;
}
