// Rules of automated collections: validation and translation into one SQL predicate over the
// products table (alias `p`). Pure: no database, no GraphQL. Evaluating the predicate on every
// read is what keeps membership current when a product changes.
import { DomainError } from '../../../lib/errors.js';

export const RULE_OPERATORS = ['equals', 'not_equals', 'greater_than', 'less_than', 'contains', 'starts_with', 'in'] as const;
export type RuleOperator = (typeof RULE_OPERATORS)[number];
export type RuleValue = string | number | boolean | (string | number)[];

export interface RuleCondition {
  field: string;
  operator: RuleOperator;
  value: RuleValue;
}

export interface CollectionRules {
  match: 'all' | 'any';
  conditions: RuleCondition[];
}

type FieldKind = 'text' | 'number' | 'datetime' | 'attribute';

/** The product fields a condition may name, with the column each reads. */
export const RULE_FIELDS: Record<string, { kind: FieldKind; column: string }> = {
  name: { kind: 'text', column: 'p.name' },
  sku: { kind: 'text', column: 'p.sku' },
  description: { kind: 'text', column: 'p.description' },
  status: { kind: 'text', column: 'p.status' },
  type: { kind: 'text', column: 'p.type' },
  currency: { kind: 'text', column: 'p.price_currency' },
  price: { kind: 'number', column: 'p.price_amount' },
  compare_at_price: { kind: 'number', column: 'p.compare_at_amount' },
  created_at: { kind: 'datetime', column: 'p.created_at' },
  updated_at: { kind: 'datetime', column: 'p.updated_at' },
};

const OPERATORS_BY_KIND: Record<FieldKind, readonly RuleOperator[]> = {
  text: ['equals', 'not_equals', 'contains', 'starts_with', 'in'],
  number: ['equals', 'not_equals', 'greater_than', 'less_than', 'in'],
  datetime: ['greater_than', 'less_than'],
  attribute: RULE_OPERATORS,
};

export const MAX_CONDITIONS = 50;
const ATTRIBUTE_KEY = /^[A-Za-z0-9_-]{1,100}$/;

function fail(parameter: string, message: string): never {
  throw new DomainError('VALIDATION_FAILED', message, { parameter });
}

function fieldOf(name: string, parameter: string): { kind: FieldKind; column: string; key?: string } {
  if (name.startsWith('attributes.')) {
    const key = name.slice('attributes.'.length);
    if (!ATTRIBUTE_KEY.test(key)) fail(parameter, 'attributes.<key>: the key must be 1-100 letters, digits, "_" or "-"');
    return { kind: 'attribute', column: 'p.attributes', key };
  }
  const f = RULE_FIELDS[name];
  if (!f) fail(parameter, `field must be one of ${Object.keys(RULE_FIELDS).join(', ')} or attributes.<key>`);
  return f;
}

function isScalar(v: unknown): v is string | number {
  return typeof v === 'string' || (typeof v === 'number' && Number.isFinite(v));
}

/** Validate raw rules (from GraphQL JSON) into typed rules, or 422 naming the offending path. */
export function parseRules(raw: unknown, parameter = 'rules'): CollectionRules {
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) fail(parameter, 'rules must be an object { match, conditions }');
  const r = raw as Record<string, unknown>;
  const match = r.match ?? 'all';
  if (match !== 'all' && match !== 'any') fail(`${parameter}.match`, 'match must be "all" or "any"');
  if (!Array.isArray(r.conditions) || r.conditions.length === 0) fail(`${parameter}.conditions`, 'conditions must be a non-empty array');
  if (r.conditions.length > MAX_CONDITIONS) fail(`${parameter}.conditions`, `at most ${MAX_CONDITIONS} conditions`);
  const conditions = r.conditions.map((c, i): RuleCondition => {
    const at = `${parameter}.conditions[${i}]`;
    if (typeof c !== 'object' || c === null || Array.isArray(c)) fail(at, 'each condition is an object { field, operator, value }');
    const { field, operator, value } = c as Record<string, unknown>;
    if (typeof field !== 'string') fail(`${at}.field`, 'field must be a string');
    const f = fieldOf(field, `${at}.field`);
    if (typeof operator !== 'string' || !(RULE_OPERATORS as readonly string[]).includes(operator)) fail(`${at}.operator`, `operator must be one of ${RULE_OPERATORS.join(', ')}`);
    const op = operator as RuleOperator;
    if (!OPERATORS_BY_KIND[f.kind].includes(op)) fail(`${at}.operator`, `${field} takes the operators ${OPERATORS_BY_KIND[f.kind].join(', ')}`);
    checkValue(f.kind, op, value, `${at}.value`);
    return { field, operator: op, value: value as RuleValue };
  });
  return { match, conditions };
}

function checkValue(kind: FieldKind, op: RuleOperator, value: unknown, parameter: string): void {
  if (op === 'in') {
    if (!Array.isArray(value) || value.length === 0 || value.length > 500) fail(parameter, 'in takes a non-empty array of at most 500 values');
    for (const v of value) checkScalar(kind, v, parameter);
    if (kind === 'attribute' && new Set(value.map((v) => typeof v)).size > 1) fail(parameter, 'in takes values of one type (all strings or all numbers)');
    return;
  }
  if ((op === 'contains' || op === 'starts_with') && (typeof value !== 'string' || value === '')) fail(parameter, `${op} takes a non-empty string`);
  if ((op === 'greater_than' || op === 'less_than') && kind === 'attribute' && typeof value !== 'number') fail(parameter, `${op} takes a number`);
  checkScalar(kind, value, parameter);
}

function checkScalar(kind: FieldKind, v: unknown, parameter: string): void {
  switch (kind) {
    case 'text':
      if (typeof v !== 'string') fail(parameter, 'value must be a string');
      return;
    case 'number':
      if (typeof v !== 'number' || !Number.isSafeInteger(v)) fail(parameter, 'value must be an integer (amounts are in the smallest currency unit)');
      return;
    case 'datetime':
      if (typeof v !== 'string' || Number.isNaN(Date.parse(v))) fail(parameter, 'value must be an ISO 8601 date-time');
      return;
    case 'attribute':
      if (!isScalar(v)) fail(parameter, 'value must be a string or a number');
  }
}

export interface SqlFragment {
  sql: string;
  params: unknown[];
}

/** `%` and `_` match themselves in LIKE patterns built from client text. */
function likeEscape(s: string): string {
  return s.replace(/[\\%_]/g, (c) => `\\${c}`);
}

function conditionSql(c: RuleCondition): SqlFragment {
  const f = fieldOf(c.field, 'field');
  if (f.kind === 'attribute') {
    const numeric = Array.isArray(c.value) ? typeof c.value[0] === 'number' : typeof c.value === 'number';
    // numbers compare numerically with attributes holding JSON numbers; strings compare as text
    const col = numeric ? `(case when jsonb_typeof(p.attributes -> ?) = 'number' then (p.attributes ->> ?)::numeric end)` : `(p.attributes ->> ?)`;
    const colParams = numeric ? [f.key, f.key] : [f.key];
    return numeric ? numberSql(col, colParams, c, 'numeric') : textSql(col, colParams, c);
  }
  if (f.kind === 'text') return textSql(f.column, [], c);
  if (f.kind === 'number') return numberSql(f.column, [], c, 'bigint');
  const v = new Date(String(c.value)).toISOString();
  return { sql: `${f.column} ${c.operator === 'greater_than' ? '>' : '<'} ?::timestamptz`, params: [v] };
}

/** Text compares case-insensitively (Shopify's smart-collection conditions do). */
function textSql(col: string, colParams: unknown[], c: RuleCondition): SqlFragment {
  switch (c.operator) {
    case 'equals':
      return { sql: `lower(${col}) = lower(?)`, params: [...colParams, String(c.value)] };
    case 'not_equals':
      return { sql: `(${col} is null or lower(${col}) <> lower(?))`, params: [...colParams, ...colParams, String(c.value)] };
    case 'contains':
      return { sql: `${col} ilike ?`, params: [...colParams, `%${likeEscape(String(c.value))}%`] };
    case 'starts_with':
      return { sql: `${col} ilike ?`, params: [...colParams, `${likeEscape(String(c.value))}%`] };
    case 'in':
      return { sql: `lower(${col}) in (select jsonb_array_elements_text(?::jsonb))`, params: [...colParams, JSON.stringify((c.value as (string | number)[]).map((v) => String(v).toLowerCase()))] };
    default:
      return { sql: 'false', params: [] };
  }
}

function numberSql(col: string, colParams: unknown[], c: RuleCondition, cast: 'bigint' | 'numeric'): SqlFragment {
  switch (c.operator) {
    case 'equals':
      return { sql: `${col} = ?::${cast}`, params: [...colParams, c.value] };
    case 'not_equals':
      return { sql: `${col} is distinct from ?::${cast}`, params: [...colParams, c.value] };
    case 'greater_than':
      return { sql: `${col} > ?::${cast}`, params: [...colParams, c.value] };
    case 'less_than':
      return { sql: `${col} < ?::${cast}`, params: [...colParams, c.value] };
    case 'in':
      return { sql: `${col} in (select (jsonb_array_elements_text(?::jsonb))::${cast})`, params: [...colParams, JSON.stringify(c.value)] };
    default:
      return { sql: 'false', params: [] };
  }
}

/** The rules as one parenthesised predicate over `p` (catalog.products). */
export function rulesToSql(rules: CollectionRules): SqlFragment {
  const parts = rules.conditions.map(conditionSql);
  const joiner = rules.match === 'any' ? ' or ' : ' and ';
  return { sql: `(${parts.map((x) => x.sql).join(joiner)})`, params: parts.flatMap((x) => x.params) };
}
