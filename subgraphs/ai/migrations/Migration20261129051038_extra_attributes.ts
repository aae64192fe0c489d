// Attributes kept as given (lib/extra-attributes.ts): a prompt record has fields the AI document
// does not show.
import { Migration } from '@mikro-orm/migrations';

export class Migration20261129051038_extra_attributes extends Migration {
  override async up(): Promise<void> {
    this.addSql("alter table \"ai\".\"prompts\" add \"extra_attributes\" jsonb not null default '{}'");
  }
}
