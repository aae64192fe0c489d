import type { Route } from '../types.js';
export const PLATFORM_REPORTING_ROUTES: Route[] = [];
