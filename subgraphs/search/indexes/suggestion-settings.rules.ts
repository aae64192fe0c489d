// Suggestion settings of an index: defaults, validation of a PATCH, merging. Pure rules.
import { fail, keyAliases } from './index-settings.rules.js';

export interface SuggestionSettingsData {
  enabled: boolean;
  /** document fields whose values are offered as suggestions; [] = past queries only */
  source_attributes: string[];
  /** shorter queries get no suggestions */
  min_query_length: number;
  max_suggestions: number;
  include_frequency: boolean;
}

export function defaultSuggestionSettings(): SuggestionSettingsData {
  return { enabled: true, source_attributes: [], min_query_length: 2, max_suggestions: 5, include_frequency: true };
}

const KEYS = keyAliases<keyof SuggestionSettingsData>(['enabled', 'source_attributes', 'min_query_length', 'max_suggestions', 'include_frequency']);

/** Validate a partial object (REST snake_case or GraphQL camelCase keys) and merge it over `current`. */
export function mergeSuggestionSettings(current: SuggestionSettingsData, patch: Record<string, unknown>): SuggestionSettingsData {
  const out = { ...current };
  for (const [raw, v] of Object.entries(patch)) {
    if (v === undefined) continue;
    const key = KEYS[raw];
    if (!key) fail(raw, `Unknown suggestion setting ${raw} (expected ${Object.keys(defaultSuggestionSettings()).join(', ')})`);
    const reset = v === null;
    const d = defaultSuggestionSettings();
    switch (key) {
      case 'enabled':
      case 'include_frequency':
        if (!reset && typeof v !== 'boolean') fail(key, `${key} must be a boolean`);
        out[key] = reset ? d[key] : (v as boolean);
        break;
      case 'source_attributes':
        if (!reset && (!Array.isArray(v) || v.length > 100 || v.some((a) => typeof a !== 'string' || !a.trim() || a.length > 512))) {
          fail(key, `${key} must be an array of at most 100 attribute names`);
        }
        out[key] = reset ? d[key] : [...new Set(v as string[])];
        break;
      case 'min_query_length':
        if (!reset && (!Number.isInteger(v) || (v as number) < 0 || (v as number) > 100)) fail(key, `${key} must be an integer from 0 to 100`);
        out[key] = reset ? d[key] : (v as number);
        break;
      case 'max_suggestions':
        if (!reset && (!Number.isInteger(v) || (v as number) < 1 || (v as number) > 100)) fail(key, `${key} must be an integer from 1 to 100`);
        out[key] = reset ? d[key] : (v as number);
        break;
    }
  }
  return out;
}
