// THE route table: every documented REST path the bridge serves, split per service.
import type { Route } from '../types.js';
import { AI_ROUTES } from './ai.routes.js';
import { CATALOG_ROUTES } from './catalog.routes.js';
import { PLATFORM_ROUTES } from './platform.routes.js';
import { SEARCH_ROUTES } from './search.routes.js';
import { PLATFORM_ACCOUNT_ROUTES } from './platform-accounts.routes.js';
import { PLATFORM_APP_ROUTES } from './platform-apps.routes.js';

export const ROUTES: readonly Route[] = [...PLATFORM_ROUTES, ...PLATFORM_ACCOUNT_ROUTES, ...PLATFORM_APP_ROUTES, ...CATALOG_ROUTES, ...SEARCH_ROUTES, ...AI_ROUTES];
