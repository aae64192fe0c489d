// Associated data of every sealed value of the platform subgraph, in one place: a sealed value
// opens only with the AAD of the row and field it was written for (see lib/crypto.ts). Delivery
// rows are lib/webhooks' (their AAD is there).
export const credentialSecretAad = (id: string) => `credential:${id}:secret`;
export const exchangeSecretAad = (id: string) => `exchange:${id}:secret`;
export const teamChatUrlAad = (accountId: string) => `notification-settings:${accountId}:team-chat-url`;
export const eventSecretAad = (eventId: string) => `account-event:${eventId}:secret-data`;
export const webhookSecretAad = (appId: string) => `app-webhook-secret:${appId}`;
