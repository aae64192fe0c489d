// A TCP relay in front of a real server (PostgreSQL, Redis) that a fault test cuts and restores:
// down() resets every open connection and stops listening (new ones are refused), up() listens again.
import { createServer, connect, type Server, type Socket } from 'node:net';

export interface TcpRelay {
  port: number;
  up(): Promise<void>;
  down(): Promise<void>;
}

export function tcpRelay(port: number, target: { host: string; port: number }): TcpRelay {
  let server: Server | undefined;
  const open = new Set<Socket>();
  return {
    port,
    async up() {
      server = createServer((client) => {
        const upstream = connect(target.port, target.host);
        open.add(client).add(upstream);
        const drop = () => {
          client.destroy();
          upstream.destroy();
          open.delete(client);
          open.delete(upstream);
        };
        client.on('error', drop).on('close', drop);
        upstream.on('error', drop).on('close', drop);
        client.pipe(upstream).pipe(client);
      });
      await new Promise<void>((r) => server!.listen(port, '127.0.0.1', () => r()));
    },
    async down() {
      const closed = new Promise<void>((r) => (server ? server.close(() => r()) : r()));
      for (const s of open) s.resetAndDestroy();
      open.clear();
      await closed;
      server = undefined;
    },
  };
}
