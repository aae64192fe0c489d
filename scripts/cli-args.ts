// Command-line options of the project's scripts (seed, import, mint-token): `--help`/`-h` prints the
// usage, an unknown or malformed option one line naming it and the usage (exit 2), never a stack trace.
// The config names its own `help: { type: 'boolean', short: 'h' }` option.
import { parseArgs, type ParseArgsConfig } from 'node:util';

export function parseCli<T extends ParseArgsConfig>(usage: string, config: T): ReturnType<typeof parseArgs<T>> {
  let parsed: ReturnType<typeof parseArgs<T>>;
  try {
    parsed = parseArgs(config);
  } catch (e) {
    console.error(`error: ${(e as Error).message.split('\n')[0]}\n${usage}`);
    process.exit(2);
  }
  if ((parsed.values as Record<string, unknown>).help) {
    console.log(usage);
    process.exit(0);
  }
  return parsed;
}
