// Platform service: notification settings of an account, its webhook delivery log and the signing
// secrets of its apps' webhooks (document 1). JWT + X-Platform.
import { resource } from '../jsonapi.js';
import { getParam, intParam } from '../query.js';
import type { Route } from '../types.js';

const base = { service: 'platform', auth: 'jwt+platform' } as const;
const account = (r: { params: Record<string, string> }) => ({ accountUrlId: r.params.url_id });
const settingsRes = (s: Record<string, unknown>) => resource('notification_settings', s);

export const PLATFORM_NOTIFICATION_ROUTES: Route[] = [
  {
    ...base,
    method: 'GET',
    path: '/accounts/:url_id/settings/notifications',
    operation: 'GetNotificationSettings',
    summary: 'Team-chat webhook (masked) and the events sent to it',
    variables: account,
    result: (d) => ({ data: settingsRes(d.notificationSettings) }),
    status: 200,
    responseType: 'notification_settings',
  },
  {
    ...base,
    method: 'PATCH',
    path: '/accounts/:url_id/settings/notifications',
    operation: 'UpdateNotificationSettings',
    summary: "Set the team-chat webhook URL (null removes it), the events sent ('*', 'key.*', 'account.created'…) and enabled",
    body: { type: 'notification_settings', input: 'input' },
    variables: (r) => ({ ...account(r), input: r.attributes }),
    result: (d) => ({ data: settingsRes(d.updateNotificationSettings) }),
    status: 200,
    responseType: 'notification_settings',
  },
  {
    ...base,
    method: 'GET',
    path: '/accounts/:url_id/settings/notifications/deliveries',
    operation: 'ListWebhookDeliveries',
    summary: 'Latest webhook deliveries of the account events (team chat and app webhooks), newest first',
    query: [
      { name: 'status', type: 'string', description: 'pending, delivering, delivered, failed' },
      { name: 'limit', type: 'integer', description: '1-200, default 50' },
    ],
    variables: (r) => ({ ...account(r), status: getParam(r.query, 'status') ?? null, limit: intParam(r.query, 'limit', { default: 50, min: 1, max: 200 }) }),
    result: (d) => ({ data: d.webhookDeliveries.map((x: Record<string, unknown>) => resource('webhook_deliveries', x)) }),
    status: 200,
    responseType: 'webhook_deliveries',
    list: true,
  },
  {
    ...base,
    method: 'POST',
    path: '/accounts/:url_id/apps/:app_id/webhook_secret',
    operation: 'RollAppWebhookSecret',
    summary: "Create or roll the app's webhook signing secret (shown only in this response); account events reach the app's webhook_url once it has one",
    variables: (r) => ({ ...account(r), appId: r.params.app_id }),
    result: (d) => ({ data: resource('webhook_secrets', d.rollAppWebhookSecret) }),
    status: 201,
    responseType: 'webhook_secrets',
  },
];
