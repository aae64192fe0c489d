// The AI service's error codes (document 2), as the spec writes them.
// Set on the subgraph's definition (index.ts); `npm run compose` writes them to schema/contract.json,
// from which the edges render them. The declaration below adds them to the ErrorCodes type.
import { defineErrors, type CodesOf } from '../../lib/errors.js';

export const AI_ERRORS = defineErrors({
  // rendered alone (shape B) on REST
  'usr-not-registered': { status: 404, title: 'User not registered in this tenant', rest: { singleObjectBody: true } },
  model_unavailable: { status: 503, title: 'AI model temporarily unavailable' },
  text_too_long: { status: 400, title: 'Input text exceeds the maximum length' },
  invalid_language: { status: 400, title: 'Language code not supported' },
  batch_not_found: { status: 404, title: 'Batch not found' },
  // custom classifiers, prompts, agent context (docs/ai.md, document 2 part II)
  'invalid-uuid-format': { status: 400, title: 'unique_id is not a valid UUID' },
  classifier_not_found: { status: 404, title: 'Custom classifier does not exist' },
  training_not_found: { status: 404, title: 'Classifier training not found' },
  classifier_not_trained: { status: 409, title: 'Classifier has no trained model yet' },
  prompt_not_found: { status: 404, title: 'Prompt does not exist' },
  missing_placeholder: { status: 422, title: 'A placeholder of the prompt has no value' },
  // model choices (docs/ai.md, Model choices)
  plan_upgrade_required: { status: 403, title: 'The plan does not include this feature' },
  invalid_model_choice: { status: 400, title: 'Not a model server the operator configured' },
  // image endpoints (lib/vision)
  invalid_image_format: { status: 400, title: 'Unsupported image format' },
});

declare module '../../lib/errors.js' {
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type
  interface ErrorCodes extends CodesOf<typeof AI_ERRORS> {}
}
