import { Field, InputType } from 'type-graphql';

@InputType({ description: 'Only the fields given change' })
export class NotificationSettingsInput {
  @Field({ nullable: true, description: 'Slack-style incoming webhook URL (https); null removes it' }) teamChatWebhookUrl?: string;
  @Field(() => [String], { nullable: true, description: "events sent to team chat: names, family patterns ('key.*') or '*' (default: '*')" })
  events?: string[];
  @Field({ nullable: true, description: 'false pauses team-chat messages without forgetting the URL' }) enabled?: boolean;
}
