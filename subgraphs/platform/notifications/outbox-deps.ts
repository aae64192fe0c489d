import type { SecretBox } from '../../../lib/crypto.js';

/**
 * What writing deliveries needs from the process: the SecretBox sealing URLs, secrets and bodies,
 * the attempt limit, and the webhook sender to wake after commit (none in a process without one).
 */
export interface OutboxDeps {
  secrets: SecretBox;
  maxAttempts: number;
  kick?(): void;
}
