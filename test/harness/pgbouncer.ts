// PgBouncer in transaction mode in front of a test database (Debian's pgbouncer): the config files
// written into `dir`, the process started (as the postgres user when the tests run as root, since
// PgBouncer refuses root). Used by test/e2e/pgbouncer.test.ts and the topology test.
import { spawn, type ChildProcess } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { resolve } from 'node:path';

export const PGBOUNCER = '/usr/sbin/pgbouncer';

export function startPgBouncer(dir: string, databaseUrl: string, o: { port: number; poolSize: number; maxClients: number }): ChildProcess {
  const target = new URL(databaseUrl);
  writeFileSync(resolve(dir, 'users.txt'), `"${decodeURIComponent(target.username || 'postgres')}" ""\n`);
  writeFileSync(
    resolve(dir, 'pgbouncer.ini'),
    [
      '[databases]',
      `* = host=${target.hostname} port=${target.port || 5432}`,
      '[pgbouncer]',
      'listen_addr = 127.0.0.1',
      `listen_port = ${o.port}`,
      'unix_socket_dir =',
      'auth_type = trust',
      `auth_file = ${resolve(dir, 'users.txt')}`,
      'pool_mode = transaction',
      `default_pool_size = ${o.poolSize}`,
      `max_client_conn = ${o.maxClients}`,
      'ignore_startup_parameters = extra_float_digits,options',
      '',
    ].join('\n'),
  );
  const asRoot = process.getuid?.() === 0;
  return spawn(PGBOUNCER, [...(asRoot ? ['-u', 'postgres'] : []), resolve(dir, 'pgbouncer.ini')], { stdio: 'ignore' });
}
