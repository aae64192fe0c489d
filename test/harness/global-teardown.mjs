import pg from 'pg';

export default async function globalTeardown() {
  const s = globalThis.__STACK__;
  if (!s) return;
  if (s.child.exitCode === null) {
    await new Promise((res) => {
      const t = setTimeout(() => s.child.kill('SIGKILL'), 10_000);
      s.child.once('exit', () => {
        clearTimeout(t);
        res();
      });
      s.child.kill('SIGTERM');
    });
  }
  s.otlp?.close();
  if (s.dropDatabase) {
    const admin = new pg.Client({ connectionString: s.dropDatabase.admin });
    await admin.connect();
    await admin.query(`drop database if exists ${s.dropDatabase.name} with (force)`);
    await admin.end();
  }
}
