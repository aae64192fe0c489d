// Checked-in migrations, applied in this order at start (see lib/db.ts migrate()).
import { Migration20261122090119_init } from './Migration20261122090119_init.js';
import { Migration20261122093536_billing } from './Migration20261122093536_billing.js';
import { Migration20261122093537_seed_subscription_models } from './Migration20261122093537_seed_subscription_models.js';

export const migrations = [
  { name: 'Migration20261122090119_init', class: Migration20261122090119_init },
  { name: 'Migration20261122093536_billing', class: Migration20261122093536_billing },
  { name: 'Migration20261122093537_seed_subscription_models', class: Migration20261122093537_seed_subscription_models },
];
