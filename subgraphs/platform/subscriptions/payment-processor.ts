// Payment processors sit behind this interface. The built-in `manual` processor collects nothing
// itself: an issued invoice stays `due` until an operator records the payment through the API
// (POST /accounts/:url_id/invoices/:id/pay). A card processor would implement the same two calls
// against its provider; none is built in (no fake card payments).
import { DomainError } from '../../../lib/errors.js';

export interface InvoiceToCollect {
  id: string;
  accountId: string;
  amountCents: number;
  currency: string;
}

export interface PaymentProcessor {
  readonly name: string;
  /** At issue time: `paid` when the processor collected the amount already, else `due`. */
  collect(invoice: InvoiceToCollect): Promise<{ status: 'due' | 'paid'; reference?: string }>;
  /** A payment reported through the API; returns the reference to store. */
  recordPayment(invoice: InvoiceToCollect, input: { reference?: string }): Promise<{ reference: string | null }>;
}

export const manualProcessor: PaymentProcessor = {
  name: 'manual',
  async collect() {
    return { status: 'due' };
  },
  async recordPayment(_invoice, input) {
    return { reference: input.reference ?? null };
  },
};

const PROCESSORS: ReadonlyMap<string, PaymentProcessor> = new Map([[manualProcessor.name, manualProcessor]]);

export const PROCESSOR_NAMES = [...PROCESSORS.keys()];

/** The processor called `name`; 422 naming `processor` for any other name. */
export function processorNamed(name: string): PaymentProcessor {
  const p = PROCESSORS.get(name);
  if (!p) throw new DomainError('VALIDATION_FAILED', `processor must be one of ${PROCESSOR_NAMES.join(', ')}`, { parameter: 'processor' });
  return p;
}
