// lib/http-client.ts: a request on a pooled keep-alive socket that the server resets before answering
// (it closed the idle socket as the request left) is sent once more on a new socket; a reset of a
// fresh socket, or after the answer began, is the caller's error.
import { createServer, type Server, type Socket } from 'node:net';
import { postJson } from '../../lib/http-client.js';

// offset 1503 of TEST_PORT_BASE
const PORT = Number(process.env.TEST_PORT_BASE ?? 14000) + 1503;
const URL_ = `http://127.0.0.1:${PORT}/graphql`;
const ok = 'HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ncontent-length: 11\r\nconnection: keep-alive\r\n\r\n{"data":{}}';

let server: Server;
/** per connection: how many requests it has seen; `resetSecond`: the second request on a socket is reset unanswered */
let mode: 'resetSecond' | 'resetAll' = 'resetSecond';
let connections = 0;

beforeAll(async () => {
  server = createServer((socket: Socket) => {
    connections++;
    let seen = 0;
    socket.on('data', (chunk) => {
      if (!chunk.toString().startsWith('POST')) return;
      seen++;
      if (mode === 'resetAll' || seen === 2) return void socket.resetAndDestroy();
      socket.write(ok);
    });
    socket.on('error', () => undefined);
  });
  await new Promise<void>((r) => server.listen(PORT, '127.0.0.1', () => r()));
});

afterAll(async () => {
  await new Promise((r) => server.close(r));
});

test('a reset on a reused socket is sent again on a new one', async () => {
  connections = 0;
  expect((await postJson(URL_, {}, '{}')).status).toBe(200);
  // the pooled socket is reset on its second request: answered through a second connection
  expect((await postJson(URL_, {}, '{}')).text).toBe('{"data":{}}');
  expect(connections).toBe(2);
});

test('sent again once only: a reset on the fresh socket is the caller\'s error', async () => {
  mode = 'resetAll';
  connections = 0;
  // the pooled socket of the test above is reset, then the new one too
  await expect(postJson(URL_, {}, '{}')).rejects.toMatchObject({ code: 'ECONNRESET' });
  expect(connections).toBe(1);
});
