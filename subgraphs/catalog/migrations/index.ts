// Checked-in migrations, applied in this order at start (see lib/db.ts migrate()).
import { Migration20261122085603_init } from './Migration20261122085603_init.js';
import { Migration20261124082432_taxonomy_and_pricing } from './Migration20261124082432_taxonomy_and_pricing.js';
import { Migration20261124090821_products_variants_search_webhooks } from './Migration20261124090821_products_variants_search_webhooks.js';
import { Migration20261124100647_webhook_jobs } from './Migration20261124100647_webhook_jobs.js';
// inventory (locations, levels, ledger, reservations)
import { Migration20261124120000_inventory } from './Migration20261124120000_inventory.js';
import { Migration20261124120430_product_images } from './Migration20261124120430_product_images.js';
import { Migration20261124160000_product_image_embeddings } from './Migration20261124160000_product_image_embeddings.js';
import { Migration20261124230000_product_counts } from './Migration20261124230000_product_counts.js';
import { Migration20261125010000_inventory_hold_group } from './Migration20261125010000_inventory_hold_group.js';
import { Migration20261125020000_product_order_version } from './Migration20261125020000_product_order_version.js';
import { Migration20261130160000_product_image_files_removal } from './Migration20261130160000_product_image_files_removal.js';

export const migrations = [
  { name: 'Migration20261122085603_init', class: Migration20261122085603_init },
  { name: 'Migration20261124082432_taxonomy_and_pricing', class: Migration20261124082432_taxonomy_and_pricing },
  { name: 'Migration20261124090821_products_variants_search_webhooks', class: Migration20261124090821_products_variants_search_webhooks },
  { name: 'Migration20261124100647_webhook_jobs', class: Migration20261124100647_webhook_jobs },
  // inventory
  { name: 'Migration20261124120000_inventory', class: Migration20261124120000_inventory },
  { name: 'Migration20261124120430_product_images', class: Migration20261124120430_product_images },
  { name: 'Migration20261124160000_product_image_embeddings', class: Migration20261124160000_product_image_embeddings },
  { name: 'Migration20261124230000_product_counts', class: Migration20261124230000_product_counts },
  { name: 'Migration20261125010000_inventory_hold_group', class: Migration20261125010000_inventory_hold_group },
  { name: 'Migration20261125020000_product_order_version', class: Migration20261125020000_product_order_version },
  { name: 'Migration20261130160000_product_image_files_removal', class: Migration20261130160000_product_image_files_removal },
];
