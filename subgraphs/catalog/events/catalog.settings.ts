// The process settings the catalog's webhook code needs (delivery attempts, the master-key box that
// seals endpoint secrets, the private-network switch), read from the environment once.
import { loadConfig } from '../../../lib/config.js';
import { masterSecretBox, type SecretBox } from '../../../lib/crypto.js';

export interface CatalogWebhookSettings {
  maxAttempts: number;
  retryBaseMs: number;
  pollMs: number;
  secrets: SecretBox;
  allowPrivate: boolean;
}

let settings: CatalogWebhookSettings | undefined;

export function catalogWebhookSettings(): CatalogWebhookSettings {
  if (!settings) {
    const cfg = loadConfig();
    settings = {
      maxAttempts: cfg.webhookMaxAttempts,
      retryBaseMs: cfg.webhookRetryBaseMs,
      pollMs: cfg.webhookPollMs,
      secrets: masterSecretBox(cfg),
      allowPrivate: cfg.allowPrivateNetworkFetch,
    };
  }
  return settings;
}
