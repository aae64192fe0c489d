// Checked-in migrations, applied in this order at start (see lib/db.ts migrate()).
import { Migration20261122085603_init } from './Migration20261122085603_init.js';
import { Migration20261124082432_taxonomy_and_pricing } from './Migration20261124082432_taxonomy_and_pricing.js';

export const migrations = [
  { name: 'Migration20261122085603_init', class: Migration20261122085603_init },
  { name: 'Migration20261124082432_taxonomy_and_pricing', class: Migration20261124082432_taxonomy_and_pricing },
];
