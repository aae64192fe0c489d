// The public flow reaches transfers by code alone, without X-Platform: these queries switch the
// platform filter off, and are scoped by the transfer code (or the id it resolved to) instead.
// Audit rows are only ever inserted here (the table's trigger refuses UPDATE and DELETE).
import { raw } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import { DataTransferAccessCodeEntity, DataTransferAuditEntity, DataTransferEntity, type TransferStatus, TRANSFER_CODE_RE } from './data-transfer.entity.js';

export async function findByCode(em: EntityManager, code: string): Promise<DataTransferEntity | null> {
  if (!TRANSFER_CODE_RE.test(code)) return null;
  return em.findOne(DataTransferEntity, { code }, { populate: ['account', 'platform'], filters: false });
}

export function appendAudit(em: EntityManager, transfer: DataTransferEntity, action: string, actor: string, detail: Record<string, unknown> = {}): DataTransferAuditEntity {
  return em.create(DataTransferAuditEntity, { transfer: em.getReference(DataTransferEntity, transfer.id), action, actor, detail });
}

export async function auditTrail(em: EntityManager, transferId: string): Promise<DataTransferAuditEntity[]> {
  return em.find(DataTransferAuditEntity, { transfer: transferId }, { orderBy: { seq: 'asc' }, filters: false });
}

/** Codes issued for the transfer in the last hour (the request limit). */
export async function codesIssuedSince(em: EntityManager, transferId: string, since: Date): Promise<number> {
  return em.count(DataTransferAccessCodeEntity, { transfer: transferId, createdAt: { $gte: since } }, { filters: false });
}

/** Burn every unused code of the transfer (a new code supersedes them). */
export async function retireCodes(em: EntityManager, transferId: string): Promise<void> {
  await em.nativeUpdate(DataTransferAccessCodeEntity, { transfer: transferId, consumedAt: null }, { consumedAt: new Date() }, { filters: false });
}

export async function liveCode(em: EntityManager, transferId: string): Promise<DataTransferAccessCodeEntity | null> {
  return em.findOne(
    DataTransferAccessCodeEntity,
    { transfer: transferId, consumedAt: null, expiresAt: { $gt: new Date() } },
    { orderBy: { createdAt: 'desc' }, filters: false },
  );
}

/** Count one try in ONE conditional statement; false when the code is used up, burned or gone. */
export async function countAttempt(em: EntityManager, codeId: string, maxAttempts: number): Promise<boolean> {
  const n = await em.nativeUpdate(
    DataTransferAccessCodeEntity,
    { id: codeId, consumedAt: null, attempts: { $lt: maxAttempts } },
    { attempts: raw<number>('attempts + 1') },
    { filters: false },
  );
  return n === 1;
}

/** Mark the code used; false when a concurrent verification got there first. */
export async function consumeCode(em: EntityManager, codeId: string): Promise<boolean> {
  return (await em.nativeUpdate(DataTransferAccessCodeEntity, { id: codeId, consumedAt: null }, { consumedAt: new Date() }, { filters: false })) === 1;
}

/** open → accepted/declined, exactly once, in ONE conditional statement. */
export async function decide(em: EntityManager, transferId: string, status: Exclude<TransferStatus, 'open'>, reason: string | null): Promise<boolean> {
  const now = new Date();
  const n = await em.nativeUpdate(
    DataTransferEntity,
    { id: transferId, status: 'open', expiresAt: { $gt: now } },
    { status, decidedAt: now, declineReason: reason, updatedAt: now },
    { filters: false },
  );
  return n === 1;
}
