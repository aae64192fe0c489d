import { Migration } from '@mikro-orm/migrations';

// The plan catalog, with stable ids and codes (clients and other services refer to the codes).
// Limits are those of document 2 (AI) and document 3 (search); null = "custom" or unlimited.
// Blocks are the block codes of platform.md's 17 blocks (Jarvis (AI) is `jarvis`).
const FREE_BLOCKS = ['auth', 'content', 'files', 'forms', 'notifications'];
const STARTER_BLOCKS = [...FREE_BLOCKS, 'crm', 'messaging', 'onboarding', 'products', 'search'];
const GROWTH_BLOCKS = [...STARTER_BLOCKS, 'geolocation', 'jarvis', 'rewards', 'sales', 'social', 'wallet'];
const ENTERPRISE_BLOCKS = [...GROWTH_BLOCKS, 'university'];

const MODELS = [
  {
    id: 'smod_free', code: 'free', name: 'Free', position: 1, monthly: 0, annual: 0, trial: 0, blocks: FREE_BLOCKS,
    description: 'Core blocks and the free limits, for trying the platform and small projects.',
    limits: { ai: { requestsPerMinute: 60, textCharactersPerRequest: 5000, imagesPerMinute: 10 }, search: { searchesPerSecond: 10, documentsPerIndex: 10000, indexes: 3 } },
  },
  {
    id: 'smod_starter', code: 'starter', name: 'Starter', position: 2, monthly: 4900, annual: 49000, trial: 14, blocks: STARTER_BLOCKS,
    description: 'CRM, messaging, products and search for a first product in production.',
    limits: { ai: { requestsPerMinute: 300, textCharactersPerRequest: 25000, imagesPerMinute: 60 }, search: { searchesPerSecond: 50, documentsPerIndex: 100000, indexes: 10 } },
  },
  {
    id: 'smod_growth', code: 'growth', name: 'Growth', position: 3, monthly: 19900, annual: 199000, trial: 14, blocks: GROWTH_BLOCKS,
    description: 'Every commerce and engagement block, Jarvis (AI) and higher limits.',
    limits: { ai: { requestsPerMinute: 1000, textCharactersPerRequest: 100000, imagesPerMinute: 200 }, search: { searchesPerSecond: 200, documentsPerIndex: 1000000, indexes: 50 } },
  },
  {
    id: 'smod_enterprise', code: 'enterprise', name: 'Enterprise', position: 4, monthly: 99900, annual: 999000, trial: 30, blocks: ENTERPRISE_BLOCKS,
    description: 'All 17 blocks; AI and search limits set per contract (list price shown).',
    limits: { ai: { requestsPerMinute: null, textCharactersPerRequest: null, imagesPerMinute: null }, search: { searchesPerSecond: null, documentsPerIndex: null, indexes: null } },
  },
];

/** A SQL string literal (the values are the constants above; quotes doubled all the same). */
const lit = (v: string) => `'${v.replace(/'/g, "''")}'`;

export class Migration20261122093537_seed_subscription_models extends Migration {
  override async up(): Promise<void> {
    for (const m of MODELS) {
      this.addSql(
        `insert into "platform"."subscription_models" ("id", "code", "name", "description", "price_monthly_cents", "price_annual_cents", "currency", "trial_days", "included_blocks", "limits", "position", "active", "created_at")
         values (${lit(m.id)}, ${lit(m.code)}, ${lit(m.name)}, ${lit(m.description)}, ${m.monthly}, ${m.annual}, 'USD', ${m.trial},
                 ${lit(`{${m.blocks.join(',')}}`)}::text[], ${lit(JSON.stringify(m.limits))}::jsonb, ${m.position}, true, now())
         on conflict ("code") do nothing`,
      );
    }
  }
}
