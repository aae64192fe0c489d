// Checked-in migrations, applied in this order at start (see lib/db.ts migrate()).
import { Migration20261122090119_init } from './Migration20261122090119_init.js';

export const migrations = [
  { name: 'Migration20261122090119_init', class: Migration20261122090119_init },
];
