// Per-tenant choice of the model behind each text task (docs/ai.md, Model choices). Reading is open to
// every plan; choosing needs ai:write and a plan that includes it (CHOOSING_PLANS). The text
// endpoints ask `chosenServer` which server answers: the tenant's pick while its plan allows it, else
// the operator's default, else the in-process method (null).
import { DomainError } from '../../../lib/errors.js';
import { newId } from '../../../lib/ids.js';
import { appPartition } from '../../../lib/tenant-entity.js';
import type { AiContext } from '../context.js';
import { requireRegisteredUser } from '../identities/identity.service.js';
import { AI_READ, AI_WRITE, planLimits } from '../limits/limits.service.js';
import type { AiPlan } from '../limits/plans.js';
import { BUILTIN, hasServers, MODEL_TASKS, OPERATOR_DEFAULT, type ModelTask, type ServerRegistry } from '../operator-models/server-registry.js';
import { ModelChoiceEntity } from './model-choice.entity.js';
import type { ModelChoices, ModelChoicesInput } from './model-choice.types.js';

/** Plans whose tenants choose their models (the plans above starter: the servers are the operator's cost). */
export const CHOOSING_PLANS: readonly AiPlan[] = ['growth', 'enterprise'];

/** The server type of a task: an embedding or moderation server, or a chat-completions client. */
type Server<T extends ModelTask> = NonNullable<ServerRegistry['defaults'][T]>;

export async function getModelChoices(ctx: AiContext): Promise<ModelChoices> {
  await requireRegisteredUser(ctx, AI_READ);
  return view(ctx, await stored(ctx));
}

export async function updateModelChoices(ctx: AiContext, input: ModelChoicesInput): Promise<ModelChoices> {
  await requireRegisteredUser(ctx, AI_WRITE);
  const { plan } = planLimits(ctx);
  if (!CHOOSING_PLANS.includes(plan)) {
    throw new DomainError('plan_upgrade_required', `The ${plan} plan does not include choosing models; ${CHOOSING_PLANS.join(' and ')} do`, { meta: { plan, plans: [...CHOOSING_PLANS] } });
  }
  const registry = ctx.runtime.registry;
  const changes: Array<[ModelTask, string]> = [];
  for (const task of MODEL_TASKS) {
    const value = input[task];
    if (value === undefined || value === null) continue;
    const names = [...registry.named[task].keys()];
    if (value !== BUILTIN && value !== OPERATOR_DEFAULT && !registry.named[task].has(value)) {
      const known = [OPERATOR_DEFAULT, BUILTIN, ...names].map((n) => `"${n}"`).join(', ');
      throw new DomainError('invalid_model_choice', `${task}: "${value}" is not a ${task} server of this operator; choose one of ${known}`, { parameter: task, meta: { allowed: [OPERATOR_DEFAULT, BUILTIN, ...names] } });
    }
    changes.push([task, value]);
  }
  const { appId, environment } = await appPartition(ctx);
  await ctx.em.transactional(async (tx) => {
    for (const [task, choice] of changes) {
      if (choice === OPERATOR_DEFAULT) await tx.nativeDelete(ModelChoiceEntity, { appId, environment, task });
      else await tx.upsert(ModelChoiceEntity, { id: newId('mch'), appId, environment, task, choice, updatedAt: new Date() }, { onConflictFields: ['appId', 'environment', 'task'], onConflictExcludeFields: ['id'] });
    }
  });
  return view(ctx, await stored(ctx));
}

/**
 * The server that answers `task` for this tenant, or null for the in-process method: the tenant's
 * pick while its plan allows choosing, else the operator's default. A pick of a server the operator
 * has since removed falls back to the default (and is logged).
 */
export async function chosenServer<T extends ModelTask>(ctx: AiContext, task: T): Promise<Server<T> | null> {
  const registry = ctx.runtime.registry;
  if (!hasServers(registry, task)) return null;
  const fallback = registry.defaults[task] as Server<T> | null;
  if (!CHOOSING_PLANS.includes(planLimits(ctx).plan)) return fallback;
  const row = await ctx.em.findOne(ModelChoiceEntity, { task });
  return pick(ctx, task, row?.choice ?? null) ?? (row?.choice === BUILTIN ? null : fallback);
}

function pick<T extends ModelTask>(ctx: AiContext, task: T, choice: string | null): Server<T> | null {
  if (choice === null || choice === BUILTIN) return null;
  const server = ctx.runtime.registry.named[task].get(choice) as Server<T> | undefined;
  if (!server) ctx.log.warn('a tenant chose a model server the operator no longer configures; the default answers', { task, choice });
  return server ?? null;
}

async function stored(ctx: AiContext): Promise<Map<string, string>> {
  const rows = await ctx.em.find(ModelChoiceEntity, {});
  return new Map(rows.map((r) => [r.task, r.choice]));
}

function view(ctx: AiContext, picks: Map<string, string>): ModelChoices {
  const { plan } = planLimits(ctx);
  const choosable = CHOOSING_PLANS.includes(plan);
  const registry = ctx.runtime.registry;
  const choices = MODEL_TASKS.map((task) => {
    const choice = picks.get(task) ?? OPERATOR_DEFAULT;
    const effective = !choosable || choice === OPERATOR_DEFAULT ? registry.defaults[task] : choice === BUILTIN ? null : (registry.named[task].get(choice) ?? registry.defaults[task]);
    return { task, choice, model: effective ? serverModel(task, effective) : BUILTIN, servers: [...registry.named[task].keys()] };
  });
  return { id: ctx.tenant.appId ?? '', plan, choosable, choices };
}

/** A server as the answers' `model` names it. */
function serverModel(task: ModelTask, s: Server<ModelTask>): string {
  if ('name' in s) return s.name;
  return `chat-completions:${s.cfg.models[task === 'summaries' ? 'summary' : 'translation']}`;
}
