import { Migration } from '@mikro-orm/migrations';

// The block catalog (platform.md: "The 17 blocks that can be licensed and provisioned"). Written out
// here, not imported, so the migration stays what it was when it ran. The ids are part of the API
// (clients send them as block_unique_id): never renumber them; later changes go in new migrations.
const BLOCKS: [id: string, code: string, name: string, description: string][] = [
  ['blk_auth', 'auth', 'Auth', 'Sign-up, sign-in, sessions and identity providers'],
  ['blk_crm', 'crm', 'CRM', 'Contacts, companies, deals and pipelines'],
  ['blk_content', 'content', 'Content', 'Structured content, pages and publishing'],
  ['blk_files', 'files', 'Files', 'File uploads, storage and delivery'],
  ['blk_forms', 'forms', 'Forms', 'Form builder and submissions'],
  ['blk_geolocation', 'geolocation', 'Geolocation', 'Places, geocoding and proximity'],
  ['blk_jarvis', 'jarvis', 'Jarvis (AI)', 'AI analysis, recommendations, prompts and agents'],
  ['blk_messaging', 'messaging', 'Messaging', 'Conversations and direct messages'],
  ['blk_notifications', 'notifications', 'Notifications', 'E-mail, push and in-app notifications'],
  ['blk_onboarding', 'onboarding', 'Onboarding', 'Guided onboarding flows and checklists'],
  ['blk_products', 'products', 'Products', 'Product catalog, variants, inventory and pricing'],
  ['blk_rewards', 'rewards', 'Rewards', 'Points, badges and loyalty programs'],
  ['blk_sales', 'sales', 'Sales', 'Orders, carts and checkout'],
  ['blk_search', 'search', 'Search', 'Indexes, ranked and faceted search'],
  ['blk_social', 'social', 'Social', 'Profiles, follows, feeds and reactions'],
  ['blk_university', 'university', 'University', 'Courses, lessons and progress tracking'],
  ['blk_wallet', 'wallet', 'Wallet', 'Balances, transactions and payouts'],
];

export class Migration20261122091811_seed_blocks extends Migration {
  override async up(): Promise<void> {
    const quote = (s: string) => `'${s.replace(/'/g, "''")}'`;
    const rows = BLOCKS.map(([id, code, name, description], i) => `(${[id, code, name, description].map(quote).join(', ')}, ${i + 1})`);
    this.addSql(
      `insert into "platform"."blocks" ("id", "code", "name", "description", "position") values ${rows.join(', ')} on conflict ("id") do nothing`,
    );
  }
}
