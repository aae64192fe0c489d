// THE route table: every documented REST path the bridge serves, split per service.
import type { Route } from '../types.js';
import { AI_ROUTES } from './ai.routes.js';
import { CATALOG_ROUTES } from './catalog.routes.js';
import { PLATFORM_ROUTES } from './platform.routes.js';
import { SEARCH_ROUTES } from './search.routes.js';
import { PLATFORM_BILLING_ROUTES } from './platform-billing.routes.js';
import { PLATFORM_REPORTING_ROUTES } from './platform-reporting.routes.js';

export const ROUTES: readonly Route[] = [...PLATFORM_ROUTES, ...PLATFORM_BILLING_ROUTES, ...PLATFORM_REPORTING_ROUTES, ...CATALOG_ROUTES, ...SEARCH_ROUTES, ...AI_ROUTES];
