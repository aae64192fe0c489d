// Checked-in migrations, applied in this order at start (see lib/db.ts migrate()).
import { Migration20261122090119_init } from './Migration20261122090119_init.js';
import { Migration20261122091747_keys_domains_soft_delete } from './Migration20261122091747_keys_domains_soft_delete.js';
import { Migration20261122091810_blocks_and_user_access } from './Migration20261122091810_blocks_and_user_access.js';
import { Migration20261122091811_seed_blocks } from './Migration20261122091811_seed_blocks.js';
import { Migration20261122093328_account_services_transfers } from './Migration20261122093328_account_services_transfers.js';
import { Migration20261122093536_billing } from './Migration20261122093536_billing.js';
import { Migration20261122093537_seed_subscription_models } from './Migration20261122093537_seed_subscription_models.js';
import { Migration20261124083100_lib_webhooks } from './Migration20261124083100_lib_webhooks.js';
import { Migration20261124083115_jobs } from './Migration20261124083115_jobs.js';
import { Migration20261124090000_webhook_jobs } from './Migration20261124090000_webhook_jobs.js';
import { Migration20261124160000_platform_operators } from './Migration20261124160000_platform_operators.js';
import { Migration20261129051030_extra_attributes } from './Migration20261129051030_extra_attributes.js';
import { Migration20261129091500_registered_operations } from './Migration20261129091500_registered_operations.js';

export const migrations = [
  { name: 'Migration20261122090119_init', class: Migration20261122090119_init },
  { name: 'Migration20261122091747_keys_domains_soft_delete', class: Migration20261122091747_keys_domains_soft_delete },
  { name: 'Migration20261122091810_blocks_and_user_access', class: Migration20261122091810_blocks_and_user_access },
  { name: 'Migration20261122091811_seed_blocks', class: Migration20261122091811_seed_blocks },
  { name: 'Migration20261122093328_account_services_transfers', class: Migration20261122093328_account_services_transfers },
  { name: 'Migration20261122093536_billing', class: Migration20261122093536_billing },
  { name: 'Migration20261122093537_seed_subscription_models', class: Migration20261122093537_seed_subscription_models },
  { name: 'Migration20261124083100_lib_webhooks', class: Migration20261124083100_lib_webhooks },
  { name: 'Migration20261124083115_jobs', class: Migration20261124083115_jobs },
  { name: 'Migration20261124090000_webhook_jobs', class: Migration20261124090000_webhook_jobs },
  { name: 'Migration20261124160000_platform_operators', class: Migration20261124160000_platform_operators },
  { name: 'Migration20261129051030_extra_attributes', class: Migration20261129051030_extra_attributes },
  { name: 'Migration20261129091500_registered_operations', class: Migration20261129091500_registered_operations },
];
