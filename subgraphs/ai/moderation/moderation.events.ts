// A flagged moderation answer (text or image) announced: `moderation.flagged` to the app's AI
// webhooks (queued in a transaction of its own, lib/webhooks) and, after commit, on the app's aiEvents
// subscription. Receivers get the verdict, the scores and who asked, never the content itself.
import { publishAfterCommit } from '../../../lib/events.js';
import { appPartition } from '../../../lib/tenant-entity.js';
import type { AiContext } from '../context.js';
import { aiEventsTopic, type AiEventPayload } from '../event-types.js';
import { emitAiEvent } from '../webhooks/ai-webhook.js';

export interface Flagged {
  id: string;
  content: 'text' | 'image';
  action: string;
  /** the requested categories with their verdicts (the webhook's `categories`) */
  categories: Record<string, { flagged: boolean } | undefined>;
  model: string;
}

export async function announceFlagged(ctx: AiContext, f: Flagged): Promise<void> {
  const partition = await appPartition(ctx);
  await ctx.em.transactional((tx) =>
    emitAiEvent(ctx.runtime, tx, partition, 'moderation.flagged', {
      moderation_id: f.id,
      ...(f.content === 'image' ? { content: 'image' } : {}),
      action: f.action,
      categories: f.categories,
      user_unique_id: ctx.tenant.userId,
      model: f.model,
    }),
  );
  const flaggedCategories = Object.entries(f.categories)
    .filter(([, v]) => v?.flagged)
    .map(([k]) => k);
  const payload: AiEventPayload = { event: 'moderation.flagged', occurredAt: new Date().toISOString(), status: 'flagged', moderationId: f.id, content: f.content, action: f.action, flaggedCategories };
  await publishAfterCommit(ctx, aiEventsTopic(partition.appId, partition.environment), payload, payload.event);
}
