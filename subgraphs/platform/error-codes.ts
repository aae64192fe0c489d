// The platform service's error codes (document 1), as the spec writes them.
// Set on the subgraph's definition (index.ts); `npm run compose` writes them to schema/contract.json,
// from which the edges render them. The declaration below adds them to the ErrorCodes type.
import { defineErrors, type CodesOf } from '../../lib/errors.js';

export const PLATFORM_ERRORS = defineErrors({
  // platform (document 1)
  PLATFORM_REQUIRED: { status: 400, title: 'X-Platform header required' },
  PLATFORM_NOT_FOUND: { status: 404, title: 'Platform not found' },
  ACCOUNT_NOT_FOUND: { status: 404, title: 'Account not found' },
  APP_NOT_FOUND: { status: 404, title: 'App not found' },
  API_KEY_NOT_FOUND: { status: 404, title: 'API key not found' },
  CODE_ALREADY_EXISTS: { status: 409, title: 'Code already in use' },
  URL_ID_ALREADY_EXISTS: { status: 409, title: 'url_id already in use' },
  BLOCK_NOT_FOUND: { status: 404, title: 'Block not found' },
  BLOCK_LICENSE_NOT_FOUND: { status: 404, title: 'Block not licensed to this account' },
  BLOCK_NOT_PROVISIONED: { status: 404, title: 'Block not provisioned to this app' },
  BLOCK_NOT_LICENSED: { status: 422, title: 'Block not licensed to the account' },
  BLOCK_STILL_PROVISIONED: { status: 409, title: 'Block still provisioned to apps' },
  ACCESS_NOT_FOUND: { status: 404, title: 'User access not found' },
  ACCESS_ALREADY_EXISTS: { status: 409, title: 'User already has access with another role' },
  INVALID_STATE_TRANSITION: { status: 409, title: 'Illegal state transition' },
  // platform: subscriptions and billing
  SUBSCRIPTION_NOT_FOUND: { status: 404, title: 'Subscription not found' },
  SUBSCRIPTION_ALREADY_EXISTS: { status: 409, title: 'The account already has a live subscription' },
  INVALID_SUBSCRIPTION_TRANSITION: { status: 409, title: 'Move not allowed in the subscription state' },
  INVOICE_NOT_FOUND: { status: 404, title: 'Invoice not found' },
  INVOICE_NOT_DUE: { status: 409, title: 'The invoice is not due' },
  PLATFORM_NOT_EMPTY: { status: 409, title: 'Platform still has accounts' },
  // platform operators (docs/security.md)
  OPERATOR_NOT_FOUND: { status: 404, title: 'Platform operator not found' },
  OPERATOR_ALREADY_EXISTS: { status: 409, title: 'The user already operates this platform' },
  LAST_PLATFORM_ADMIN: { status: 409, title: 'The last operator with platform:admin cannot be removed' },
  API_KEY_CHANGED: { status: 409, title: 'API key changed concurrently' },
  DEPLOYMENT_MODEL_CONFLICT: { status: 409, title: 'Deployment model change conflicts with existing keys' },
  // platform: account services and data transfers (document 1)
  CREDENTIAL_NOT_FOUND: { status: 404, title: 'Credential not found' },
  CREDENTIAL_NAME_TAKEN: { status: 409, title: 'Credential name already in use in this account' },
  EXCHANGE_NOT_FOUND: { status: 404, title: 'Message-broker configuration not found' },
  EXCHANGE_NAME_TAKEN: { status: 409, title: 'Message-broker configuration name already in use in this account' },
  DETAILS_ALREADY_EXIST: { status: 409, title: 'Account details already exist (use PUT)' },
  INVALID_IMAGE: { status: 422, title: 'Not a supported image' },
  LOGO_NOT_FOUND: { status: 404, title: 'Logo not found' },
  DATA_TRANSFER_NOT_FOUND: { status: 404, title: 'Data transfer not found' },
  DATA_TRANSFER_EXPIRED: { status: 410, title: 'Data transfer expired' },
  DATA_TRANSFER_ALREADY_DECIDED: { status: 409, title: 'Data transfer already accepted or declined' },
  DATA_TRANSFER_NOT_ACCEPTED: { status: 409, title: 'Data transfer not accepted' },
  ACCESS_CODE_INVALID: { status: 401, title: 'Access code invalid, expired or already used' },
  ACCESS_TOKEN_INVALID: { status: 401, title: 'Access token invalid or expired' },
});

declare module '../../lib/errors.js' {
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type
  interface ErrorCodes extends CodesOf<typeof PLATFORM_ERRORS> {}
}
