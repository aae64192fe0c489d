// Checked-in migrations, applied in this order at start (see lib/db.ts migrate()).
import { Migration20261122085826_init } from './Migration20261122085826_init.js';
import { Migration20261122092742_documents_tasks_webhooks } from './Migration20261122092742_documents_tasks_webhooks.js';
import { Migration20261124083000_lib_webhooks } from './Migration20261124083000_lib_webhooks.js';
import { Migration20261124083110_jobs } from './Migration20261124083110_jobs.js';
import { Migration20261124084005_task_lease_in_jobs } from './Migration20261124084005_task_lease_in_jobs.js';
import { Migration20261124090000_webhook_jobs } from './Migration20261124090000_webhook_jobs.js';
import { Migration20261125013000_task_payload_storage } from './Migration20261125013000_task_payload_storage.js';
import { Migration20261127180000_tenant_task_uids } from './Migration20261127180000_tenant_task_uids.js';
import { Migration20261127180000_chunked_snapshots } from './Migration20261127180000_chunked_snapshots.js';
import { Migration20261129050000_search_nodes } from './Migration20261129050000_search_nodes.js';
import { Migration20261201030000_document_fields } from './Migration20261201030000_document_fields.js';
import { Migration20261201040000_index_swap_and_update_tasks } from './Migration20261201040000_index_swap_and_update_tasks.js';

export const migrations = [
  { name: 'Migration20261122085826_init', class: Migration20261122085826_init },
  { name: 'Migration20261122092742_documents_tasks_webhooks', class: Migration20261122092742_documents_tasks_webhooks },
  { name: 'Migration20261124083000_lib_webhooks', class: Migration20261124083000_lib_webhooks },
  { name: 'Migration20261124083110_jobs', class: Migration20261124083110_jobs },
  { name: 'Migration20261124084005_task_lease_in_jobs', class: Migration20261124084005_task_lease_in_jobs },
  { name: 'Migration20261124090000_webhook_jobs', class: Migration20261124090000_webhook_jobs },
  { name: 'Migration20261125013000_task_payload_storage', class: Migration20261125013000_task_payload_storage },
  { name: 'Migration20261127180000_tenant_task_uids', class: Migration20261127180000_tenant_task_uids },
  { name: 'Migration20261127180000_chunked_snapshots', class: Migration20261127180000_chunked_snapshots },
  { name: 'Migration20261129050000_search_nodes', class: Migration20261129050000_search_nodes },
  { name: 'Migration20261201030000_document_fields', class: Migration20261201030000_document_fields },
  { name: 'Migration20261201040000_index_swap_and_update_tasks', class: Migration20261201040000_index_swap_and_update_tasks },
];
