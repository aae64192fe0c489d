// The contract extraction's "Fields of …: not shown" rows (scripts/contract-markdown.ts): which
// resources a document says have fields it does not show, and whether the record or only its answer.
import { extractDocument, fieldsNotShown } from '../../scripts/contract-markdown.js';

test('records, one record with the fields shown, answers only', () => {
  expect(fieldsNotShown('Fields of subscription, block license and notification-settings records: not shown.', 'S').map((r) => [r.resource, r.scope])).toEqual([
    ['subscription', 'record'],
    ['block license', 'record'],
    ['notification-settings', 'record'],
  ]);
  expect(fieldsNotShown('Fields of a prompt record beyond its identifier, name, content and description: not shown.', 'S')).toEqual([
    { section: 'S', resource: 'prompt', scope: 'record', shown: ['identifier', 'name', 'content', 'description'], sentence: 'Fields of a prompt record beyond its identifier, name, content and description: not shown.' },
  ]);
  expect(fieldsNotShown('Fields of category, collection and location responses: not shown.', 'S').map((r) => [r.resource, r.scope])).toEqual([
    ['category', 'response'],
    ['collection', 'response'],
    ['location', 'response'],
  ]);
  // other "not shown" sentences are about values, paths or answers: no rows
  expect(fieldsNotShown('Response bodies of update product: not shown.', 'S')).toEqual([]);
  expect(fieldsNotShown('Allowed values of status, app_type and purpose: not shown.', 'S')).toEqual([]);
});

test('a document gets one row per resource, with stable ids', () => {
  const doc = extractDocument('# D\n## Resources and their fields\nFields of data transfer and account details records: not shown.\n', 'd');
  expect(doc.fieldsNotShown.map((r) => r.id)).toEqual(['fields-not-shown.data_transfer', 'fields-not-shown.account_details']);
  expect(doc.notShown).toHaveLength(1);
});
