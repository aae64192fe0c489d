// Checked-in migrations, applied in this order at start (see lib/db.ts migrate()).
import { Migration20261122090119_init } from './Migration20261122090119_init.js';
import { Migration20261122091747_keys_domains_soft_delete } from './Migration20261122091747_keys_domains_soft_delete.js';

export const migrations = [
  { name: 'Migration20261122090119_init', class: Migration20261122090119_init },
  { name: 'Migration20261122091747_keys_domains_soft_delete', class: Migration20261122091747_keys_domains_soft_delete },
];
