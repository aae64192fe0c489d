// The 10 library templates (ai.md, Prompt template library), present in every tenant. They are
// defined here, not copied into each tenant's rows: every tenant lists them with the same
// unique_id (a name-based UUID, RFC 4122 version 5), renders and executes them directly, and
// clones one by creating a custom prompt from its content (POST /prompts).
import { createHash } from 'node:crypto';

export type LibraryTier = 'universal' | 'reasoning' | 'specialized';

export interface LibraryTemplate {
  uniqueId: string;
  name: string;
  tier: LibraryTier;
  description: string;
  content: string;
}

/** RFC 4122 version 5 (SHA-1, name-based) in the URL namespace. */
function uuidV5(name: string): string {
  const ns = Buffer.from('6ba7b8119dad11d180b400c04fd430c8', 'hex');
  const h = createHash('sha1').update(ns).update(name).digest();
  h[6] = (h[6] & 0x0f) | 0x50;
  h[8] = (h[8] & 0x3f) | 0x80;
  const x = h.subarray(0, 16).toString('hex');
  return `${x.slice(0, 8)}-${x.slice(8, 12)}-${x.slice(12, 16)}-${x.slice(16, 20)}-${x.slice(20)}`;
}

const t = (name: string, tier: LibraryTier, description: string, content: string): LibraryTemplate => ({
  uniqueId: uuidV5(`urn:prompt-library:${name}`),
  name,
  tier,
  description,
  content,
});

export const PROMPT_LIBRARY: readonly LibraryTemplate[] = [
  t('Freeform', 'universal', 'A free instruction: placeholders task, and optionally anything it names', '{{task}}'),
  t(
    'Persona Agent',
    'universal',
    'Answer as a persona: persona.name, persona.role, persona.traits (list), persona.tone, request',
    'You are {{persona.name}}, {{persona.role}}.\nYour traits:\n{{persona.traits|bullets}}\nSpeak in a {{persona.tone}} tone and stay in character.\n\nUser request: {{request}}',
  ),
  t(
    'Structured Output',
    'universal',
    'Answer in a given format: task, format (e.g. JSON), fields (list of objects with name and description)',
    'Task: {{task}}\n\nAnswer only with {{format}} containing exactly these fields:\n{{fields|field:name|bullets}}\n\nField meanings:\n{{fields|field:description|numbered}}\nDo not add commentary.',
  ),
  t(
    'Chain of Thought',
    'reasoning',
    'Reason step by step before answering: question, optionally given facts (list)',
    'Question: {{question}}\n\nThink step by step. Write each step on its own numbered line, check each step, then give the final answer on a last line starting with "Answer:".',
  ),
  t(
    'Few-Shot Learning',
    'reasoning',
    'Learn a task from examples: instruction, examples (list of objects with input and output), input',
    '{{instruction}}\n\nExample inputs:\n{{examples|field:input|numbered}}\n\nTheir outputs, in the same order:\n{{examples|field:output|numbered}}\n\nNow the same for:\nInput: {{input}}\nOutput:',
  ),
  t(
    'Self-Critique',
    'reasoning',
    'Draft, critique against criteria, and improve: task, criteria (list)',
    'Task: {{task}}\n\n1. Write a first draft.\n2. Critique the draft against each criterion:\n{{criteria|bullets}}\n3. Write an improved final version that fixes every problem you found.',
  ),
  t(
    'RAG Context',
    'specialized',
    'Answer from retrieved context only: context (list of passages; an agent\'s context ranked for the question when rendered with agent_context), question',
    'Answer the question using only the context below. If the context does not contain the answer, say that you do not know.\n\nContext:\n{{context|numbered}}\n\nQuestion: {{question}}',
  ),
  t(
    'Research Query',
    'specialized',
    'Plan research on a topic: topic, questions (list), sources (list, optional via a custom copy)',
    'Research topic: {{topic}}\n\nAnswer these questions, citing a source for every claim:\n{{questions|numbered}}\n\nEnd with a short summary of what is known and what remains uncertain.',
  ),
  t(
    'Fact Check',
    'specialized',
    'Check a claim against evidence: claim, evidence (list)',
    'Claim: {{claim}}\n\nEvidence:\n{{evidence|bullets}}\n\nDecide whether the evidence supports, refutes or is insufficient for the claim. Answer with one of SUPPORTED, REFUTED or NOT ENOUGH INFORMATION, then explain in at most three sentences.',
  ),
  t(
    'Knowledge Generation',
    'specialized',
    'Generate background knowledge before answering: topic, question, count (number of facts)',
    'Before answering, write {{count}} facts about {{topic}} that help with the question below, one per line.\nThen answer the question using those facts.\n\nQuestion: {{question}}',
  ),
];

const BY_ID = new Map(PROMPT_LIBRARY.map((p) => [p.uniqueId, p]));

export function libraryTemplate(uniqueId: string): LibraryTemplate | undefined {
  return BY_ID.get(uniqueId.toLowerCase());
}
