import { Field, InputType } from 'type-graphql';
import { GraphQLJSONObject } from 'graphql-scalars';
import { EXTRA_ATTRIBUTES_DESCRIPTION } from '../../../lib/extra-attributes.js';

@InputType({ description: 'Only the fields given change' })
export class NotificationSettingsInput {
  @Field({ nullable: true, description: 'Slack-style incoming webhook URL (https); null removes it' }) teamChatWebhookUrl?: string;
  @Field(() => [String], { nullable: true, description: "events sent to team chat: names, family patterns ('key.*') or '*' (default: '*')" })
  events?: string[];
  @Field({ nullable: true, description: 'false pauses team-chat messages without forgetting the URL' }) enabled?: boolean;
  @Field(() => GraphQLJSONObject, { nullable: true, description: EXTRA_ATTRIBUTES_DESCRIPTION }) extraAttributes?: Record<string, unknown>;
}
