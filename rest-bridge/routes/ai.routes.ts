// AI service (document 2): API key + user JWT; error shape A, except usr-not-registered (shape B).
import { resource } from '../jsonapi.js';
import type { Route } from '../types.js';

export const AI_ROUTES: Route[] = [
  {
    method: 'POST',
    path: '/identities/:user_unique_id/register',
    service: 'ai',
    auth: 'apiKey+jwt',
    operation: 'RegisterIdentity',
    summary: 'Register a user in the tenant (idempotent: an existing identity is returned); no request body',
    variables: (r) => ({ userUniqueId: r.params.user_unique_id }),
    result: (d) => ({ data: resource('identity', d.registerIdentity) }),
    status: 201,
    responseType: 'identity',
  },
];
