// The AI limits of each plan (ai.md, Limits). Enterprise limits are "custom": unlimited unless an
// operator sets AI_ENTERPRISE_* (see docs/ai.md). `null` means no limit.
export const AI_PLANS = ['free', 'starter', 'growth', 'enterprise'] as const;
export type AiPlan = (typeof AI_PLANS)[number];

export interface AiPlanLimits {
  requestsPerMinute: number | null;
  charactersPerRequest: number | null;
  imagesPerMinute: number | null;
}

function envLimit(name: string): number | null {
  const v = Number(process.env[name]);
  return Number.isInteger(v) && v > 0 ? v : null;
}

export const AI_PLAN_LIMITS: Record<AiPlan, AiPlanLimits> = {
  free: { requestsPerMinute: 60, charactersPerRequest: 5_000, imagesPerMinute: 10 },
  starter: { requestsPerMinute: 300, charactersPerRequest: 25_000, imagesPerMinute: 60 },
  growth: { requestsPerMinute: 1_000, charactersPerRequest: 100_000, imagesPerMinute: 200 },
  enterprise: {
    requestsPerMinute: envLimit('AI_ENTERPRISE_REQUESTS_PER_MINUTE'),
    charactersPerRequest: envLimit('AI_ENTERPRISE_CHARACTERS_PER_REQUEST'),
    imagesPerMinute: envLimit('AI_ENTERPRISE_IMAGES_PER_MINUTE'),
  },
};

export function isAiPlan(v: string): v is AiPlan {
  return (AI_PLANS as readonly string[]).includes(v);
}
