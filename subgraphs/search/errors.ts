// THE one place where engine errors become domain errors. Every EngineErrorCode is a search code
// (error-codes.ts) with the same name, so status and REST rendering follow from its registration.
import { DomainError, isErrorCode, type ErrorCode } from '../../lib/errors.js';
import { EngineError } from '../../lib/search-engine/types.js';
import { SEARCH_ERRORS } from './error-codes.js';

/** `parameter` names the request field when the engine did not (e.g. `filter`, `queries[2].sort`). */
export function fromEngineError(e: EngineError, parameter?: string): DomainError {
  const code: ErrorCode = e.code in SEARCH_ERRORS || isErrorCode(e.code) ? (e.code as ErrorCode) : 'BAD_REQUEST';
  const where = e.position !== undefined ? ` (at position ${e.position})` : '';
  // The engine names request fields in camelCase; clients (REST) wrote them snake_case.
  const own = e.parameter?.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);
  const nested = own && parameter && own !== parameter && !own.startsWith(`${parameter}.`) && !own.startsWith(`${parameter}[`);
  const param = parameter ? (nested ? `${parameter}.${own}` : (own ?? parameter)) : own;
  return new DomainError(code, `${e.message}${where && !e.message.includes('position') ? where : ''}`, param ? { parameter: param } : {});
}

/** Run engine code, turning its client errors into domain errors. */
export function engineCall<R>(fn: () => R, parameterPrefix?: string): R {
  try {
    return fn();
  } catch (e) {
    if (e instanceof EngineError) throw fromEngineError(e, parameterPrefix);
    throw e;
  }
}

/** A client error (worth a failed task), as opposed to a fault (worth a retry). */
export function asClientError(e: unknown): DomainError | undefined {
  if (e instanceof DomainError) return e.status < 500 ? e : undefined;
  if (e instanceof EngineError) return fromEngineError(e);
  return undefined;
}
