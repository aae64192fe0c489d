// Checked-in migrations, applied in this order at start (see lib/db.ts migrate()).
import { Migration20261122085906_init } from './Migration20261122085906_init.js';
import { Migration20261124090755_batches } from './Migration20261124090755_batches.js';
import { Migration20261124093126_webhooks } from './Migration20261124093126_webhooks.js';
import { Migration20261124120730_classifiers_recommendations_prompts_agents } from './Migration20261124120730_classifiers_recommendations_prompts_agents.js';
import { Migration20261127180000_tenant_rendered_prompt_ids } from './Migration20261127180000_tenant_rendered_prompt_ids.js';
import { Migration20261129051038_extra_attributes } from './Migration20261129051038_extra_attributes.js';
import { Migration20261129120000_model_choices } from './Migration20261129120000_model_choices.js';

export const migrations = [
  { name: 'Migration20261122085906_init', class: Migration20261122085906_init },
  { name: 'Migration20261124090755_batches', class: Migration20261124090755_batches },
  { name: 'Migration20261124093126_webhooks', class: Migration20261124093126_webhooks },
  { name: 'Migration20261124120730_classifiers_recommendations_prompts_agents', class: Migration20261124120730_classifiers_recommendations_prompts_agents },
  { name: 'Migration20261127180000_tenant_rendered_prompt_ids', class: Migration20261127180000_tenant_rendered_prompt_ids },
  { name: 'Migration20261129051038_extra_attributes', class: Migration20261129051038_extra_attributes },
  { name: 'Migration20261129120000_model_choices', class: Migration20261129120000_model_choices },
];
