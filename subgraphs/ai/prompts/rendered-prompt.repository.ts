// Rendered prompts are written in one statement that also draws the partition's next number
// (lib/tenant-sequence.ts): the id a caller sees counts only its own app partition's renders.
import type { EntityManager } from '@mikro-orm/postgresql';
import { nextTenantValueSql } from '../../../lib/tenant-sequence.js';

const NEXT_NUMBER = nextTenantValueSql('ai', { name: `'rendered_prompt'`, app: '?', env: '?' });

export interface NewRenderedPrompt {
  appId: string;
  environment: string;
  promptUniqueId: string;
  renderedContent: string;
  placeholdersUsed: string[];
  userUniqueId: string;
}

/** Insert one rendered prompt (autocommit); its number in the partition. */
export async function insertRenderedPrompt(em: EntityManager, r: NewRenderedPrompt): Promise<number> {
  const rows = (await em.execute(
    `with n as (${NEXT_NUMBER})
     insert into "ai"."rendered_prompts" (number, app_id, environment, prompt_unique_id, rendered_content, placeholders_used, user_unique_id, created_at)
     select n.last_value, ?, ?, ?, ?, ?::jsonb, ?, clock_timestamp() from n
     returning number`,
    [r.appId, r.environment, r.appId, r.environment, r.promptUniqueId, r.renderedContent, JSON.stringify(r.placeholdersUsed), r.userUniqueId],
  )) as { number: number }[];
  return Number(rows[0].number);
}
