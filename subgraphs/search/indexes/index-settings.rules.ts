// Pure rules for index settings: defaults, validation of a client-given (partial) settings object,
// and merging it over the current settings. No ORM, no GraphQL: the later settings endpoints
// (PATCH settings, PUT ranking-rules/stop-words/synonyms) and the engine reuse these.
// Settings are stored with the REST contract's snake_case keys, exactly as the client names them,
// so an error's `parameter` (settings.ranking_rules) matches what the client wrote.
import { DomainError } from '../../../lib/errors.js';
import { checkLanguages } from '../../../lib/search-engine/analyzer.js';
import { EngineError, type FacetOrder } from '../../../lib/search-engine/types.js';
// Meilisearch's defaults of faceting and pagination, as the engine applies them when unset
import { MAX_TOTAL_HITS, MAX_VALUES_PER_FACET } from '../../../lib/search-engine/index.js';

export interface TypoToleranceSettings {
  enabled: boolean;
  min_word_size_for_typos: { one_typo: number; two_typos: number };
  /** query words matched without typos; absent on indexes made before it existed */
  disable_on_words?: string[];
  /** attributes where words match without typos */
  disable_on_attributes?: string[];
  /** query words of digits only matched without typos */
  disable_on_numbers?: boolean;
}

/** Meilisearch's faceting: values per facet, and their order by attribute ('*': every other) */
export interface FacetingSettings {
  max_values_per_facet: number;
  sort_facet_values_by: Record<string, FacetOrder>;
}

/** Meilisearch's pagination: ranked hits reachable through offset/limit and numbered pages */
export interface PaginationSettings {
  max_total_hits: number;
}

export interface IndexSettingsData {
  searchable_attributes: string[];
  filterable_attributes: string[];
  sortable_attributes: string[];
  ranking_rules: string[];
  stop_words: string[];
  distinct_attribute: string | null;
  synonyms: Record<string, string[]>;
  /** term → terms it also matches (not the other way round) */
  one_way_synonyms: Record<string, string[]>;
  typo_tolerance: TypoToleranceSettings;
  /** language pipeline of the index (docs/search.md, Languages); absent on indexes made before it existed */
  languages?: string[];
  /** attributes embedded for hybrid/vector search (docs/search.md, Hybrid search); absent on older indexes */
  embedding_attributes?: string[];
  /** absent on indexes made before it existed (the defaults) */
  faceting?: FacetingSettings;
  /** absent on indexes made before it existed (the defaults) */
  pagination?: PaginationSettings;
}

export type IndexSettingsPatch = Partial<Omit<IndexSettingsData, 'typo_tolerance' | 'faceting' | 'pagination'>> & {
  typo_tolerance?: Partial<Omit<TypoToleranceSettings, 'min_word_size_for_typos'>> & { min_word_size_for_typos?: { one_typo?: number; two_typos?: number } };
  faceting?: Partial<FacetingSettings>;
  pagination?: Partial<PaginationSettings>;
};

/**
 * Upper bounds, where Meilisearch sets none: a facet's values are one answer's size, and the hits
 * reachable are how deep one search ranks (docs/search.md, Faceting and pagination: measured).
 */
export const MAX_VALUES_PER_FACET_SETTING = 10_000;
export const MAX_TOTAL_HITS_SETTING = 20_000;

export const BUILTIN_RANKING_RULES = ['words', 'typo', 'proximity', 'attribute', 'sort', 'exactness'] as const;

/** Meilisearch's defaults; a fresh copy each call so callers may mutate it. */
export function defaultSettings(): IndexSettingsData {
  return {
    searchable_attributes: ['*'],
    filterable_attributes: [],
    sortable_attributes: [],
    ranking_rules: [...BUILTIN_RANKING_RULES],
    stop_words: [],
    distinct_attribute: null,
    synonyms: {},
    one_way_synonyms: {},
    typo_tolerance: { enabled: true, min_word_size_for_typos: { one_typo: 5, two_typos: 9 }, disable_on_words: [], disable_on_attributes: [], disable_on_numbers: false },
    languages: [],
    embedding_attributes: [],
    faceting: { max_values_per_facet: MAX_VALUES_PER_FACET, sort_facet_values_by: { '*': 'alpha' } },
    pagination: { max_total_hits: MAX_TOTAL_HITS },
  };
}

// Bounds that keep one settings object from becoming a denial of service; generous for real use.
const MAX_LIST = 1000;
const MAX_STRING = 512;
const CUSTOM_RANKING_RULE = /^(.+):(asc|desc)$/s;

/** Attribute names are free-form document field names (dots address nested fields). */
function isAttributeName(v: unknown): v is string {
  return typeof v === 'string' && v.trim().length > 0 && v.length <= MAX_STRING;
}

/**
 * GraphQL clients may write camelCase; REST clients write snake_case. Both map to one key: each of
 * `keys` (snake_case) under its own name and its camelCase spelling. The suggestion settings use it too.
 */
export function keyAliases<K extends string>(keys: readonly K[]): Record<string, K | undefined> {
  // no prototype: a client's `constructor` or `toString` is an unknown key like any other
  return Object.assign(Object.create(null) as Record<string, K>, Object.fromEntries(keys.flatMap((k) => [[k, k], [k.replace(/_([a-z])/g, (_, c: string) => c.toUpperCase()), k]])));
}

const KEY_ALIASES = keyAliases<keyof IndexSettingsData>([
  'searchable_attributes',
  'filterable_attributes',
  'sortable_attributes',
  'ranking_rules',
  'stop_words',
  'distinct_attribute',
  'synonyms',
  'one_way_synonyms',
  'typo_tolerance',
  'languages',
  'embedding_attributes',
  'faceting',
  'pagination',
]);

/** A settings value the rules refuse: VALIDATION_FAILED naming the setting as the client wrote it. */
export function fail(parameter: string, message: string): never {
  throw new DomainError('VALIDATION_FAILED', message, { parameter });
}

function isPlainObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** An array of non-empty strings; duplicates are dropped (settings lists behave as ordered sets). */
function stringList(value: unknown, parameter: string): string[] {
  if (!Array.isArray(value)) fail(parameter, `${parameter} must be an array of strings`);
  if (value.length > MAX_LIST) fail(parameter, `${parameter} accepts at most ${MAX_LIST} entries`);
  for (const v of value) {
    if (!isAttributeName(v)) fail(parameter, `${parameter} must contain only non-empty strings of at most ${MAX_STRING} characters (got ${JSON.stringify(v)})`);
  }
  return [...new Set(value as string[])];
}

/** Language codes the analyzer knows (engine/analyzer.ts); an engine error becomes a 400 naming the setting. */
function languages(value: unknown, parameter: string): string[] {
  try {
    return checkLanguages(value);
  } catch (e) {
    if (e instanceof EngineError) fail(parameter, e.message);
    throw e;
  }
}

function rankingRules(value: unknown, parameter: string): string[] {
  const rules = stringList(value, parameter);
  for (const r of rules) {
    const custom = CUSTOM_RANKING_RULE.exec(r);
    if (!(BUILTIN_RANKING_RULES as readonly string[]).includes(r) && !(custom && custom[1].trim())) {
      fail(parameter, `${parameter}: "${r}" is neither a built-in rule (${BUILTIN_RANKING_RULES.join(', ')}) nor <attribute>:asc|desc`);
    }
  }
  return rules;
}

function stopWords(value: unknown, parameter: string): string[] {
  if (!Array.isArray(value)) fail(parameter, `${parameter} must be an array of strings`);
  if (value.length > MAX_LIST * 10) fail(parameter, `${parameter} accepts at most ${MAX_LIST * 10} entries`);
  for (const v of value) if (typeof v !== 'string' || !v.trim() || v.length > MAX_STRING) fail(parameter, `${parameter} must contain only non-empty strings`);
  // Kept as written (a client reads back what it set); the engine normalises case when matching.
  return [...new Set(value as string[])];
}

function synonyms(value: unknown, parameter: string): Record<string, string[]> {
  if (!isPlainObject(value)) fail(parameter, `${parameter} must be an object mapping a term to an array of terms`);
  const out: Record<string, string[]> = {};
  const entries = Object.entries(value);
  if (entries.length > MAX_LIST * 10) fail(parameter, `${parameter} accepts at most ${MAX_LIST * 10} terms`);
  for (const [term, list] of entries) {
    if (!term.trim() || term.length > MAX_STRING) fail(parameter, `${parameter} terms must be non-empty strings`);
    if (!Array.isArray(list) || list.some((s) => typeof s !== 'string' || !s.trim() || s.length > MAX_STRING)) {
      fail(`${parameter}.${term}`, `${parameter}.${term} must be an array of non-empty strings`);
    }
    out[term] = [...new Set(list as string[])];
  }
  return out;
}

function typoSize(value: unknown, parameter: string): number {
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 0 || value > 255) fail(parameter, `${parameter} must be an integer from 0 to 255`);
  return value;
}

function typoTolerance(value: unknown, parameter: string): NonNullable<IndexSettingsPatch['typo_tolerance']> {
  if (!isPlainObject(value)) fail(parameter, `${parameter} must be an object`);
  const out: NonNullable<IndexSettingsPatch['typo_tolerance']> = {};
  for (const [k, v] of Object.entries(value)) {
    if (k === 'enabled') {
      if (typeof v !== 'boolean') fail(`${parameter}.enabled`, `${parameter}.enabled must be a boolean`);
      out.enabled = v;
    } else if (k === 'min_word_size_for_typos' || k === 'minWordSizeForTypos') {
      const p = `${parameter}.min_word_size_for_typos`;
      if (!isPlainObject(v)) fail(p, `${p} must be an object with one_typo and two_typos`);
      out.min_word_size_for_typos = {};
      for (const [kk, vv] of Object.entries(v)) {
        if (kk === 'one_typo' || kk === 'oneTypo') out.min_word_size_for_typos.one_typo = typoSize(vv, `${p}.one_typo`);
        else if (kk === 'two_typos' || kk === 'twoTypos') out.min_word_size_for_typos.two_typos = typoSize(vv, `${p}.two_typos`);
        else fail(`${p}.${kk}`, `Unknown field ${p}.${kk} (expected one_typo, two_typos)`);
      }
    } else if (k === 'disable_on_words' || k === 'disableOnWords') {
      out.disable_on_words = v === null ? [] : stringList(v, `${parameter}.disable_on_words`);
    } else if (k === 'disable_on_attributes' || k === 'disableOnAttributes') {
      out.disable_on_attributes = v === null ? [] : stringList(v, `${parameter}.disable_on_attributes`);
    } else if (k === 'disable_on_numbers' || k === 'disableOnNumbers') {
      if (v !== null && typeof v !== 'boolean') fail(`${parameter}.disable_on_numbers`, `${parameter}.disable_on_numbers must be a boolean`);
      out.disable_on_numbers = v === true;
    } else {
      fail(`${parameter}.${k}`, `Unknown field ${parameter}.${k} (expected enabled, min_word_size_for_typos, disable_on_words, disable_on_attributes, disable_on_numbers)`);
    }
  }
  return out;
}

function intIn(value: unknown, min: number, max: number, parameter: string): number {
  if (typeof value !== 'number' || !Number.isInteger(value) || value < min || value > max) fail(parameter, `${parameter} must be an integer from ${min} to ${max.toLocaleString('en')}`);
  return value;
}

/** attribute (or '*') → alpha | count; '*' alpha unless given. */
function facetOrders(value: unknown, parameter: string): Record<string, FacetOrder> {
  if (!isPlainObject(value)) fail(parameter, `${parameter} must be an object mapping an attribute (or "*") to alpha or count`);
  const entries = Object.entries(value);
  if (entries.length > MAX_LIST) fail(parameter, `${parameter} accepts at most ${MAX_LIST} attributes`);
  const out: Record<string, FacetOrder> = { '*': 'alpha' };
  for (const [attr, order] of entries) {
    if (!isAttributeName(attr)) fail(parameter, `${parameter} keys must be attribute names or "*"`);
    if (order !== 'alpha' && order !== 'count') fail(`${parameter}.${attr}`, `${parameter}.${attr} must be alpha or count`);
    out[attr] = order;
  }
  return out;
}

/** An object of `fields` (REST name → parse of its value, null resetting it to `defaults`'), either spelling. */
function objectSetting<T extends object>(value: unknown, parameter: string, defaults: T, fields: { [K in keyof T]: (v: unknown, p: string) => T[K] }): Partial<T> {
  if (!isPlainObject(value)) fail(parameter, `${parameter} must be an object`);
  const names = keyAliases(Object.keys(fields) as (keyof T & string)[]);
  const out: Partial<T> = {};
  for (const [raw, v] of Object.entries(value)) {
    const k = names[raw];
    if (!k) fail(`${parameter}.${raw}`, `Unknown field ${parameter}.${raw} (expected ${Object.keys(fields).join(', ')})`);
    out[k] = v === null ? defaults[k] : fields[k](v, `${parameter}.${k}`);
  }
  return out;
}

/**
 * Validate a client-given settings object (all keys optional). Unknown keys are refused rather
 * than ignored, so a typo never silently leaves a default in place. `null` for a key means
 * "reset to the default", as in Meilisearch.
 */
export function parseSettingsPatch(input: unknown, parameter = 'settings'): IndexSettingsPatch {
  if (input == null) return {};
  if (!isPlainObject(input)) fail(parameter || 'data.attributes', `${parameter || 'data.attributes'} must be an object`);
  // '' = the settings are the request's top-level attributes (PATCH .../settings): parameters are bare keys
  const at = (key: string) => (parameter ? `${parameter}.${key}` : key);
  const defaults = defaultSettings();
  const out: Record<string, unknown> = {};
  for (const [rawKey, value] of Object.entries(input)) {
    const key = KEY_ALIASES[rawKey];
    if (!key) fail(at(rawKey), `Unknown setting ${rawKey} (expected one of ${Object.keys(defaults).join(', ')})`);
    if (key in out) fail(at(key), `${at(key)} is given twice`);
    const p = at(key);
    if (value === null) {
      out[key] = defaults[key];
      continue;
    }
    switch (key) {
      case 'searchable_attributes':
      case 'filterable_attributes':
      case 'sortable_attributes':
      case 'embedding_attributes':
        out[key] = stringList(value, p);
        break;
      case 'ranking_rules':
        out[key] = rankingRules(value, p);
        break;
      case 'stop_words':
        out[key] = stopWords(value, p);
        break;
      case 'distinct_attribute':
        if (!isAttributeName(value)) fail(p, `${p} must be an attribute name or null`);
        out[key] = value;
        break;
      case 'synonyms':
      case 'one_way_synonyms':
        out[key] = synonyms(value, p);
        break;
      case 'typo_tolerance':
        out[key] = typoTolerance(value, p);
        break;
      case 'languages':
        out[key] = languages(value, p);
        break;
      case 'faceting':
        out[key] = objectSetting<FacetingSettings>(value, p, defaults.faceting!, {
          max_values_per_facet: (v, at) => intIn(v, 0, MAX_VALUES_PER_FACET_SETTING, at),
          sort_facet_values_by: facetOrders,
        });
        break;
      case 'pagination':
        out[key] = objectSetting<PaginationSettings>(value, p, defaults.pagination!, { max_total_hits: (v, at) => intIn(v, 1, MAX_TOTAL_HITS_SETTING, at) });
        break;
    }
  }
  return out as IndexSettingsPatch;
}

/** Apply a validated patch over current settings; typo_tolerance merges field by field. */
export function mergeSettings(current: IndexSettingsData, patch: IndexSettingsPatch, parameter = 'settings'): IndexSettingsData {
  const prefix = parameter ? `${parameter}.` : '';
  const { typo_tolerance: typo, faceting, pagination, ...rest } = patch;
  const merged: IndexSettingsData = { ...current, ...rest };
  // field by field over what the index has (or the defaults, on an index made before they existed)
  if (faceting) merged.faceting = { ...(current.faceting ?? defaultSettings().faceting!), ...faceting };
  if (pagination) merged.pagination = { ...(current.pagination ?? defaultSettings().pagination!), ...pagination };
  if (typo) {
    const was = current.typo_tolerance;
    merged.typo_tolerance = {
      enabled: typo.enabled ?? was.enabled,
      min_word_size_for_typos: { ...was.min_word_size_for_typos, ...typo.min_word_size_for_typos },
      disable_on_words: typo.disable_on_words ?? was.disable_on_words ?? [],
      disable_on_attributes: typo.disable_on_attributes ?? was.disable_on_attributes ?? [],
      disable_on_numbers: typo.disable_on_numbers ?? was.disable_on_numbers ?? false,
    };
  }
  const sizes = merged.typo_tolerance.min_word_size_for_typos;
  if (sizes.one_typo > sizes.two_typos) {
    const p = `${prefix}typo_tolerance.min_word_size_for_typos`;
    fail(p, `${p}.one_typo (${sizes.one_typo}) must not exceed two_typos (${sizes.two_typos})`);
  }
  return merged;
}
